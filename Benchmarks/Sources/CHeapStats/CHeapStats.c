#include "CHeapStats.h"

#include <stdlib.h> // defines __GLIBC__ on glibc

#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
#include <malloc.h>

size_t stapler_live_heap_bytes(void) {
    struct mallinfo2 info = mallinfo2();
    // Small chunks in the arenas, plus the chunks glibc maps on their own (large arrays).
    return info.uordblks + info.hblkhd;
}
#else
size_t stapler_live_heap_bytes(void) {
    return 0;
}
#endif
