#include "CHeapStats.h"

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t stapler_live_heap_bytes(void) {
    return mallinfo2().uordblks;
}
#else
size_t stapler_live_heap_bytes(void) {
    return 0;
}
#endif
