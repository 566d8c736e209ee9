/* html_page.h: what the HTML pages of report/ share: the head with its inline style (no network:
 * no external font, script or sheet) and the end. Private to report/. */
#ifndef SMEMLAB_REPORT_HTML_PAGE_H
#define SMEMLAB_REPORT_HTML_PAGE_H

#include <stdio.h>

/* <!DOCTYPE html>, <head> (title escaped, the style), <body>. The page is also well-formed XML:
 * writers close every element and use no named entity beyond XML's five. */
void html_page_begin(FILE *f, const char *title);
void html_page_end(FILE *f);

#endif
