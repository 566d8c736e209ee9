/* html_page.c: the frame of every HTML page of report/ (html_page.h). */
#include "html_page.h"
#include "smemlab/base/text.h"
#include "smemlab/report/bankmap.h"

static const char style[] =
    "body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:#1d1d1d;margin:0 auto;"
    "max-width:1560px;padding:1em 1.5em 3em}\n"
    "h1{font-size:1.45em;margin:.3em 0 .2em}\n"
    "h2{font-size:1.2em;margin:2em 0 .5em;padding-bottom:.2em;border-bottom:2px solid #ddd}\n"
    "h3{font-size:1em;margin:1.2em 0 .4em}\n"
    "a{color:#0b57b0;text-decoration:none}a:hover{text-decoration:underline}\n"
    "code,pre,.mono{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:13px}\n"
    "table{border-collapse:collapse;margin:.4em 0 1em}\n"
    "th,td{border:1px solid #d6d6d6;padding:2px 8px;text-align:right;vertical-align:top}\n"
    "th{background:#f1f1f1;font-weight:600}\n"
    "th.l,td.l{text-align:left}\n"
    "td.src{text-align:left;max-width:46em;overflow-wrap:anywhere}\n"
    "tr.bad td.x{background:#fde0de;font-weight:600}\n"
    "tr.ok td.x{color:#2e7d32}\n"
    ".note{color:#555;max-width:62em}\n"
    ".verdict{font-size:1.1em;font-weight:600}\n"
    ".site{border:1px solid #dadada;border-radius:6px;padding:.5em 1em .8em;margin:1em 0;"
    "content-visibility:auto;contain-intrinsic-size:auto 420px}\n"
    ".site h3{margin:.2em 0 .5em}\n"
    ".pair{display:flex;flex-wrap:wrap;gap:1em 1.5em;align-items:flex-start}\n"
    ".pair svg{flex:none;max-width:100%;height:auto}\n"
    ".where{flex:1 1 300px;min-width:260px}\n"
    ".where p{margin:.2em 0 .6em}\n"
    ".path{color:#555;font-family:ui-monospace,'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "font-size:12px;overflow-wrap:anywhere}\n"
    "td.nw{white-space:nowrap}\n"
    "pre.src{background:#f6f6f6;border-left:3px solid #d9534f;padding:.4em .7em;margin:.2em 0 .8em;"
    "white-space:pre-wrap;overflow-wrap:anywhere}\n"
    ".chain{color:#555}\n"
    ".top{font-size:.85em;font-weight:normal;margin-left:1em}\n"
    ".haz td.l{max-width:36em}\n";

void html_page_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'/>"
          "<meta name='viewport' content='width=device-width'/><title>", f);
    smem_xml_text(f, title);
    fprintf(f, "</title>\n<style>\n%s%s</style></head><body>\n", style, smem_bankmap_style);
}

void html_page_end(FILE *f) { fputs("</body></html>\n", f); }
