/* cta_internal.h (private to emu/): everything emu/ shares, for a file that wants it all at once:
 * the services (block.h, memory.h, request.h, lanes.h, values.h) and the instruction families
 * (families.h). A file of emu/ includes the headers of the layers it calls. */
#ifndef SMEMLAB_EMU_CTA_INTERNAL_H
#define SMEMLAB_EMU_CTA_INTERNAL_H

#include "block.h"
#include "families.h"
#include "lanes.h"
#include "memory.h"
#include "request.h"

#endif
