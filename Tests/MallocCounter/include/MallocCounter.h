#ifndef STAPLER_MALLOC_COUNTER_H
#define STAPLER_MALLOC_COUNTER_H

#include <stdbool.h>
#include <stdint.h>

/// Whether allocations are counted in this build (false under sanitizers, which own malloc).
bool stapler_malloc_counter_is_available(void);

/// Starts counting the allocations made by the calling thread, from zero.
void stapler_malloc_counter_start(void);

/// Stops counting on the calling thread and returns how many allocations it made since the start.
int64_t stapler_malloc_counter_stop(void);

#endif
