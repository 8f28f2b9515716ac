// Counts heap allocations per thread by interposing the C allocator, for the test that proves
// "delivering a value to one observer allocates nothing" (the cost the Reactive contract promises).
//
// The definitions below live in the test executable, so the dynamic linker binds every call to
// malloc & co. (the Swift runtime's included) to them; they forward to glibc's own entry points.
// The counter is thread-local because Swift Testing runs tests in parallel: only the allocations of
// the thread that started counting are seen. Under a sanitizer (which owns malloc) and off glibc,
// nothing is interposed and the counter reports itself unavailable.

#include "MallocCounter.h"

#include <stddef.h>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer)
#define STAPLER_MALLOC_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define STAPLER_MALLOC_SANITIZED 1
#endif

#if defined(__linux__) && defined(__GLIBC__) && !defined(STAPLER_MALLOC_SANITIZED)
#define STAPLER_MALLOC_COUNTING 1
#endif

#if STAPLER_MALLOC_COUNTING

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *pointer, size_t size);
extern void *__libc_memalign(size_t alignment, size_t size);
extern void __libc_free(void *pointer);

// Initial-exec TLS: reading it never allocates (it lives in the executable's static TLS block).
static __thread bool counting __attribute__((tls_model("initial-exec")));
static __thread int64_t allocations __attribute__((tls_model("initial-exec")));

static inline void count_one(void) {
    if (counting) {
        allocations += 1;
    }
}

__attribute__((visibility("default"))) void *malloc(size_t size) {
    count_one();
    return __libc_malloc(size);
}

__attribute__((visibility("default"))) void *calloc(size_t count, size_t size) {
    count_one();
    return __libc_calloc(count, size);
}

__attribute__((visibility("default"))) void *realloc(void *pointer, size_t size) {
    count_one();
    return __libc_realloc(pointer, size);
}

__attribute__((visibility("default"))) void free(void *pointer) {
    __libc_free(pointer);
}

__attribute__((visibility("default"))) void *memalign(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) void *aligned_alloc(size_t alignment, size_t size) {
    count_one();
    return __libc_memalign(alignment, size);
}

__attribute__((visibility("default"))) int posix_memalign(void **result, size_t alignment, size_t size) {
    count_one();
    if (alignment % sizeof(void *) != 0 || (alignment & (alignment - 1)) != 0) {
        return 22;  // EINVAL
    }
    void *pointer = __libc_memalign(alignment, size);
    if (pointer == NULL) {
        return 12;  // ENOMEM
    }
    *result = pointer;
    return 0;
}

bool stapler_malloc_counter_is_available(void) { return true; }

void stapler_malloc_counter_start(void) {
    allocations = 0;
    counting = true;
}

int64_t stapler_malloc_counter_stop(void) {
    counting = false;
    return allocations;
}

#else

bool stapler_malloc_counter_is_available(void) { return false; }

void stapler_malloc_counter_start(void) {}

int64_t stapler_malloc_counter_stop(void) { return -1; }

#endif
