/* rt_printf.c: device printf. The emulator hands over each vprintf call: the format's device
 * address and the thread's argument buffer, packed as nvcc packs it (each argument aligned to its
 * size: 4 for int and char, 8 for long long, pointers and double, floats promoted to double).
 * The text goes to the program's stdout, as the GPU's does at the next synchronisation; lines of
 * one launch come in block order, each block's threads in order (the emulator runs a kernel that
 * prints on one thread, so the order does not change from run to run). */
#include "rt_internal.h"

#include <string.h>

#define MAX_TEXT 4096

/* The format comes from the program: each conversion is checked and given its own argument. */
#pragma GCC diagnostic ignored "-Wformat-nonliteral"

/* The NUL-terminated string at device (or host) address a, at most n bytes, into buf. */
static const char *device_string(uint64_t a, char *buf, size_t n)
{
    if (!a)
        return "(null)";
    struct rt_alloc *al = rt_find(a, 1);
    if (!al)
        return "(bad pointer)";
    uint64_t left = al->size - (a - al->dev);
    size_t k = 0;
    while (k + 1 < n && k < left && al->host[a - al->dev + k]) {
        buf[k] = (char)al->host[a - al->dev + k];
        k++;
    }
    buf[k] = 0;
    return buf;
}

void rt_print(void *ctx, uint32_t block, uint32_t thread, uint64_t format, const uint8_t *args,
              size_t nargs)
{
    (void)ctx, (void)block, (void)thread;
    char fmt[MAX_TEXT], out[MAX_TEXT], sarg[MAX_TEXT];
    device_string(format, fmt, sizeof fmt);
    size_t o = 0, pos = 0;
    for (const char *p = fmt; *p && o + 1 < sizeof out;) {
        if (*p != '%') {
            out[o++] = *p++;
            continue;
        }
        if (p[1] == '%') {
            out[o++] = '%';
            p += 2;
            continue;
        }
        /* %[flags][width][.precision][length]conversion */
        char spec[64];
        size_t s = 0;
        spec[s++] = *p++;
        while (*p && strchr("-+ #0", *p) && s < 40)
            spec[s++] = *p++;
        while (*p && (*p >= '0' && *p <= '9') && s < 48)
            spec[s++] = *p++;
        if (*p == '.') {
            spec[s++] = *p++;
            while (*p && (*p >= '0' && *p <= '9') && s < 56)
                spec[s++] = *p++;
        }
        int wide = 0;
        while (*p && strchr("hlLqjzt", *p)) {
            if (*p == 'l' || *p == 'L' || *p == 'q' || *p == 'j' || *p == 'z' || *p == 't')
                wide = 1;
            p++;
        }
        char conv = *p ? *p++ : 0;
        if (!conv)
            break;
        unsigned size = strchr("fFeEgGaAsp", conv) || wide ? 8 : 4;
        pos = (pos + size - 1) / size * size;
        uint64_t v = 0;
        if (args && pos + size <= nargs)
            memcpy(&v, args + pos, size);
        pos += size;
        int n = 0;
        size_t room = sizeof out - o;
        if (strchr("diouxXc", conv)) {
            if (size == 8) {
                spec[s++] = 'l';
                spec[s++] = 'l';
            }
            spec[s++] = conv;
            spec[s] = 0;
            if (conv == 'c')
                n = snprintf(out + o, room, spec, (int)(uint32_t)v);
            else if (size == 8)
                n = snprintf(out + o, room, spec, (long long)v);
            else
                n = snprintf(out + o, room, spec, (int)(uint32_t)v);
        } else if (strchr("fFeEgGaA", conv)) {
            double d;
            memcpy(&d, &v, 8);
            spec[s++] = conv;
            spec[s] = 0;
            n = snprintf(out + o, room, spec, d);
        } else if (conv == 's') {
            spec[s++] = 's';
            spec[s] = 0;
            n = snprintf(out + o, room, spec, device_string(v, sarg, sizeof sarg));
        } else if (conv == 'p') {
            n = snprintf(out + o, room, "0x%llx", (unsigned long long)v);
        } else {
            n = snprintf(out + o, room, "%%%c", conv); /* as the GPU: printed as is */
        }
        if (n > 0)
            o += (size_t)n < room ? (size_t)n : room - 1;
    }
    out[o] = 0;
    fputs(out, stdout);
}
