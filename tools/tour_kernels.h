/* tour_kernels.h: the tour's analysed-kernel part (see tour_kernels.c). */
#ifndef SMEMLAB_TOOLS_TOUR_KERNELS_H
#define SMEMLAB_TOOLS_TOUR_KERNELS_H

/* Prints the analysed kernels in format (FMT_*); first_json: no leading comma. Returns the number
 * of experiments printed, or -1 when one could not be analysed (said on stderr). */
int tour_kernels(int format, int first_json);

/* The rows that are not a cost table: 6, 7, 14, and where 15 and 21 are measured. */
void tour_more(void);

#endif
