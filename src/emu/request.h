/* request.h (private to emu/): the requests of the warp being run (request.c). */
#ifndef SMEMLAB_EMU_REQUEST_H
#define SMEMLAB_EMU_REQUEST_H

#include "block.h"

/* The request (site, k) of warp `warp`, created on first use (NULL: out of memory). */
struct smem_access *emu_request(struct block *b, uint32_t site, uint32_t k, uint32_t warp);
/* Lane tid's part in site's request (its next execution of the site); addr_known says whether
 * addr means anything. 0, or -1 out of memory. */
int emu_record(struct block *b, uint32_t tid, uint32_t site, uint32_t addr, int addr_known, int oob);
/* Lanes `ex` of warp w join the request of each site of pc with their shared offsets off[] (one
 * lookup when they are at the same execution of the site). 0, or -1 failed (located). */
int emu_warp_record(struct block *b, uint32_t w, uint32_t pc, uint32_t ex, const uint32_t *off);
/* Reports the requests of warp w that no lane can join any more (the others stay pending);
 * reports every pending request (the warp leaves the barrier, or the run stops). */
void emu_flush_complete(struct block *b, uint32_t w);
/* Lane tid's access of bytes to another CTA's shared memory (b->remote) joins the warp's dshared
 * request of the instruction being run (op: enum smem_dshared_op); the request goes to the hooks
 * when the warp has run the instruction (emu_dshared_flush, instruction pc). */
void emu_dshared_lane(struct block *b, uint32_t tid, unsigned op, unsigned bytes);
void emu_dshared_flush(struct block *b, uint32_t w, uint32_t pc);
void emu_flush_requests(struct block *b);

#endif
