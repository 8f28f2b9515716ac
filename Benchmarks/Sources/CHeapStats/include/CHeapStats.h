#ifndef C_HEAP_STATS_H
#define C_HEAP_STATS_H

#include <stddef.h>

/// The bytes glibc's allocator has handed out and not yet got back, in its arenas and in chunks it maps
/// on their own (chunk headers included); 0 where glibc's mallinfo2 is not available.
size_t stapler_live_heap_bytes(void);

#endif
