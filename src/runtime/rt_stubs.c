/* rt_stubs.c: every function libcudart.so.13 exports exists in ours, so a program always loads.
 * Those smemlab implements are defined in the other rt_*.c files; the rest are these weak stubs,
 * which the linker drops where a real definition exists. A stub stops the program with one
 * sentence naming the call (exit 3): an emulated GPU that silently did nothing would be worse. */
#include "rt_internal.h"

#include <string.h>

static const char *why(const char *name)
{
    static const struct {
        const char *part, *why;
    } reasons[] = {
        {"Texture", "textures are not emulated"},
        {"Surface", "surfaces are not emulated"},
        {"Array", "CUDA arrays (textures and surfaces) are not emulated"},
        {"Graph", "CUDA graphs are not emulated"},
        {"Capture", "stream capture (CUDA graphs) is not emulated"},
        {"Ipc", "inter-process memory needs a real driver"},
        {"Peer", "one GPU is emulated, not several"},
        {"EGL", "graphics interoperability needs a real driver"},
        {"GL", "graphics interoperability needs a real driver"},
        {"VDPAU", "graphics interoperability needs a real driver"},
        {"Graphics", "graphics interoperability needs a real driver"},
        {"External", "external memory and semaphores need a real driver"},
        {"MemPool", "memory pools are not emulated"},
        {"Library", "loading device code at run time is not emulated"},
        {"ProcAddress", "the CUDA driver API is not available"},
        {"ExportTable", "the CUDA driver API is not available"},
        {"Cluster", "how the GPU places clusters on its GPCs is not modelled; the H200's answers "
                    "for some configurations are in smemlab's tests/run/h200-cluster.txt"},
        {"Mipmapped", "CUDA arrays (textures and surfaces) are not emulated"},
    };
    for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
        if (strstr(name, reasons[i].part))
            return reasons[i].why;
    return NULL;
}

#define RT_SYM(name)                                                                            \
    RT_API __attribute__((weak)) int name(void);                                               \
    RT_API __attribute__((weak)) int name(void)                                                \
    {                                                                                           \
        rt_unsupported(#name, why(#name));                                                     \
    }
#include "rt_symbols.inc"
#undef RT_SYM
