/* check.h: the smallest test harness that says what failed and where. */
#ifndef SMEMLAB_TEST_CHECK_H
#define SMEMLAB_TEST_CHECK_H
#include <stdio.h>
#include <string.h>

static int check_failures, check_count;

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(cond)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: %s: CHECK(%s) failed\n", __FILE__, __LINE__, __func__, #cond); \
        }                                                                                          \
    } while (0)

#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        check_count++;                                                                             \
        if (a_ != b_) {                                                                            \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: %s: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__,    \
                    __func__, #a, a_, #b, b_);                                                     \
        }                                                                                          \
    } while (0)

#define CHECK_STR(a, b) CHECK(strcmp((a), (b)) == 0)

#define RUN(test)                                                                                  \
    do {                                                                                           \
        int before_ = check_failures;                                                              \
        test();                                                                                    \
        printf("%s %s\n", check_failures == before_ ? "ok  " : "FAIL", #test);                     \
    } while (0)

#define CHECK_DONE()                                                                               \
    (printf("%d checks, %d failed\n", check_count, check_failures), check_failures ? 1 : 0)

#endif
