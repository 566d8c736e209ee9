# pictures_cli.sh SMEMLAB XMLCHECK: the SVG and HTML pictures: well-formed (a strict checker of our
# own), self-contained, drawing what they must (32 bank columns, a column as deep as the n of n-way)
# and naming every site.
S=${1:?usage: pictures_cli.sh PATH/TO/smemlab PATH/TO/xmlcheck}
X=${2:?usage: pictures_cli.sh PATH/TO/smemlab PATH/TO/xmlcheck}
. "$(dirname "$0")/lib.sh"

# The checker itself: it must refuse what a browser's XML parser refuses.
printf "<?xml version='1.0'?>\n<!DOCTYPE html>\n<a x='1' y=\"&lt;&#233;&#x41;\"><b/>t&amp;<!-- c --><![CDATA[<&]]>\xc3\xa9</a>\n" >"$TMPD/good.xml"
t "xmlcheck: good" "$X" "$TMPD/good.xml"
expect_rc 0; expect_out "well-formed, 2 elements"
bad() { # bad NAME TEXT MESSAGE: the checker refuses TEXT with MESSAGE
    printf '%s' "$2" >"$TMPD/bad.xml"
    t "xmlcheck refuses $1" "$X" "$TMPD/bad.xml"
    expect_rc 1; expect_out "$3"
}
bad "crossed tags" "<a><b></a></b>" "1:7: </a> closes <b>"
bad "an unclosed element" "<a><b></b>" "ends inside an element"
bad "a stray ampersand" "<a>x & y</a>" "'&' that is neither"
bad "a named HTML entity" "<a>&nbsp;</a>" "'&' that is neither"
bad "an unquoted attribute" "<a x=1></a>" "not quoted"
bad "a repeated attribute" "<a x='1' x='2'/>" "given twice"
bad "'<' in an attribute" "<a x='<'/>" "'<' inside an attribute value"
bad "two roots" "<a/><b/>" "content after the root element"
bad "a void HTML element" "<html><meta charset='utf-8'></html>" "</html> closes <meta>"
bad "-- in a comment" "<a><!-- x -- y --></a>" "'--' inside a comment"
bad "a control character" "$(printf '<a>\001</a>')" "not UTF-8 or a character XML does not allow"
bad "bytes that are not UTF-8" "$(printf '<a>\377</a>')" "not UTF-8"
bad "a reference to NUL" "<a>&#0;</a>" "character XML does not allow"

# pattern --svg: the costliest request's map, 32 bank columns, a column of 32 words (32-way).
t "pattern --svg" "$S" pattern 'arr[tid*32]' --elem 4 --svg "$TMPD/m.svg"
expect_rc 0; expect_out "32-way bank conflict"
t "pattern --svg: well-formed" "$X" "$TMPD/m.svg" --count bank --most bank word --count word
expect_rc 0; expect_out "count bank 32"; expect_out "most bank word 32"; expect_out "count word 32"
grep -q "^<svg xmlns='http://www.w3.org/2000/svg'" "$TMPD/m.svg" || fail "pattern --svg: no SVG root with its namespace"
grep -q "32-way bank conflict" "$TMPD/m.svg" || fail "pattern --svg: the caption lacks the verdict"
t "conflict-free: 32 columns one word deep" "$S" pattern 'arr[tid]' --svg "$TMPD/free.svg"
expect_rc 0
t "conflict-free svg" "$X" "$TMPD/free.svg" --count bank --most bank word
expect_out "count bank 32"; expect_out "most bank word 1"
t "a broadcast: one word" "$S" pattern 'arr[0]' --svg "$TMPD/bc.svg"
t "a broadcast svg" "$X" "$TMPD/bc.svg" --count word
expect_out "count word 1"
grep -q ">0+<" "$TMPD/bc.svg" || fail "broadcast: the cell does not say that more lanes share the word"
# 16-byte accesses: one panel per pass (4 x 8 lanes for float4 v[tid]: docs/bank-model.md), 32 banks each
t "float4 --svg" "$S" pattern 'v[tid]' --elem 16 --svg "$TMPD/v.svg"
t "float4 svg" "$X" "$TMPD/v.svg" --count bank --most bank word
expect_out "count bank 128"; expect_out "most bank word 1"
grep -q "lanes 24-31" "$TMPD/v.svg" || fail "float4: no panel for lanes 24-31"
# 64 banks: 64 columns
t "64 banks" "$S" pattern 'arr[tid*64]' --banks 64 --svg "$TMPD/b64.svg"
t "64 banks svg" "$X" "$TMPD/b64.svg" --count bank --most bank word
expect_out "count bank 64"; expect_out "most bank word 32"

# pattern --html: every request; past 8, one map per distinct picture, with its warps
t "pattern --html, 1 warp" "$S" pattern 'arr[tid*2]' --html "$TMPD/p1.html"
expect_rc 0
t "pattern html well-formed" "$X" "$TMPD/p1.html" --count bankmap
expect_out "count bankmap 1"
t "pattern --html, 32 warps" "$S" pattern 'tile[tx][ty]' --shape 32x32 --block 32x32 --html "$TMPD/p32.html" --format json
expect_rc 0; expect_out '"requests":32'
t "32 warps: one picture" "$X" "$TMPD/p32.html" --count bankmap --most bank word
expect_out "count bankmap 1"; expect_out "most bank word 32"
grep -q "32 requests draw 1 distinct picture" "$TMPD/p32.html" || fail "pattern --html: the distinct pictures are not counted"
grep -q "warps 0-31 (32 requests)" "$TMPD/p32.html" || fail "pattern --html: the picture does not name its warps"
t "pattern --html, 4 warps: each" "$S" pattern 'arr[tid*2]' --block 128 --html "$TMPD/p4.html"
t "4 warps: 4 maps" "$X" "$TMPD/p4.html" --count bankmap
expect_out "count bankmap 4"

# Bad file names and options
t "--svg unwritable" "$S" pattern 'arr[tid]' --svg /nonexistent/dir/m.svg
expect_rc 3; expect_err "cannot write /nonexistent/dir/m.svg"
t "--html unwritable" "$S" pattern 'arr[tid]' --html /nonexistent/dir/m.html
expect_rc 3
t "--svg without a value" "$S" pattern 'arr[tid]' --svg
expect_rc 2; expect_err "--svg needs a value"
t "--svg= empty" "$S" pattern 'arr[tid]' --svg=
expect_rc 2; expect_err "--svg needs a file name"

# analyze --html with hundreds of sites: well-formed, self-contained, every site named and drawn.
sh "$(dirname "$0")/gen_sites.sh" 300 >"$TMPD/sites.cu"
t "analyze 300 sites --html" "$S" analyze "$TMPD/sites.cu" --block 32 --html "$TMPD/sites.html" --format csv
expect_rc 0
printf '%s\n' "$out" | grep -c ',ld,4,1,' | grep -qx 300 || fail "analyze: expected 300 load sites in the CSV"
t "300 sites: well-formed" "$X" "$TMPD/sites.html" --count bankmap --count site
expect_rc 0; expect_out "count bankmap 300"; expect_out "count site 300"
missing=0
for line in $(grep -n 'a += s\[' "$TMPD/sites.cu" | cut -d: -f1); do
    grep -q "sites.cu:$line<" "$TMPD/sites.html" || missing=$((missing + 1))
done
[ "$missing" -eq 0 ] || fail "analyze --html: $missing of 300 sites not named (file:line)"
grep -o "https\{0,1\}://[^'\" ]*" "$TMPD/sites.html" | grep -v '^http://www.w3.org/2000/svg$' | grep -q . &&
    fail "analyze --html: refers to the network"
grep -qi "<script\|<link\|@import\|url(" "$TMPD/sites.html" && fail "analyze --html: not self-contained"
# the summary: sites by excess, the first a 32-way one linking to its map
grep -q "<h3>Sites by excess wavefronts</h3>" "$TMPD/sites.html" || fail "analyze --html: no summary of sites"
sed -n '/Sites by excess/,/<\/table>/p' "$TMPD/sites.html" | grep -m1 "<td>1</td>" | grep -q "32-way" ||
    fail "analyze --html: the costliest site is not first"

# hazards: both lines with their source
cat >"$TMPD/race.cu" <<'CU'
extern "C" __global__ void reverse(int *d)
{
    __shared__ int s[64];
    s[threadIdx.x] = d[threadIdx.x];
    d[threadIdx.x] = s[63 - threadIdx.x];
}
CU
t "analyze hazards --html" "$S" analyze "$TMPD/race.cu" --block 64 --html "$TMPD/race.html"
expect_rc 0
t "hazards page well-formed" "$X" "$TMPD/race.html"
expect_rc 0
sed -n "/id='hazards'/,/<\/table>/p" "$TMPD/race.html" >"$TMPD/haz.txt"
grep -q "race.cu:4<" "$TMPD/haz.txt" && grep -q "race.cu:5<" "$TMPD/haz.txt" ||
    fail "analyze --html: a hazard without both its lines"
grep -qF 's[63 - threadIdx.x];' "$TMPD/haz.txt" || fail "analyze --html: a hazard without its source"

# a conflicting access written in an inlined helper: the map beside the kernel's line and the chain
cat >"$TMPD/inl.cu" <<'CU'
__device__ __forceinline__ float get(const float *s, int i) { return s[i * 32]; }
__global__ void k(float *out)
{
    __shared__ float s[1024];
    for (int i = threadIdx.x; i < 1024; i += 32) s[i] = i;
    __syncthreads();
    out[threadIdx.x] = get(s, threadIdx.x);
}
CU
t "analyze inlined --html" "$S" analyze "$TMPD/inl.cu" --block 32 --html "$TMPD/inl.html"
expect_rc 0
t "inlined page well-formed" "$X" "$TMPD/inl.html"
expect_rc 0
grep -q "class='chain'>inlined from inl.cu:1<" "$TMPD/inl.html" || fail "analyze --html: no inline chain"

# a source line with markup, a byte that is not UTF-8 and a control character stays well-formed
printf 'extern "C" __global__ void k(int *o)\n{\n    __shared__ int s[1024];\n    s[threadIdx.x] = 1;\n    __syncthreads();\n    o[threadIdx.x] = s[threadIdx.x * 32 %% 1024]; // caf\351 & <b> "q" \001\n}\n' >"$TMPD/odd.cu"
t "analyze odd source --html" "$S" analyze "$TMPD/odd.cu" --block 32 --html "$TMPD/odd.html"
expect_rc 0
t "odd source: well-formed" "$X" "$TMPD/odd.html" --count bankmap
expect_rc 0; expect_out "count bankmap 1"
grep -qF '// caf&#xfffd; &amp; &lt;b&gt; &quot;q&quot; &#xfffd;' "$TMPD/odd.html" || fail "odd source: not escaped"

# pattern --swizzle without an expression: the tile under Hopper's modes (and CuTe's spelling),
# well-formed, one panel a mode, every drawn 16-byte chunk a <g class='chunk'>
t "tile svg" "$S" pattern --swizzle all --shape 64x64 --elem 2 --svg "$TMPD/tile.svg"
expect_rc 0
t "tile svg well-formed" "$X" "$TMPD/tile.svg" --count mode --count chunk
expect_rc 0; expect_out "count mode 4"; expect_out "count chunk 176"
t "tile page" "$S" pattern --swizzle 'Swizzle<3,4,3>' --shape 16x32 --elem 2 --html "$TMPD/tile.html"
expect_rc 0
t "tile page well-formed" "$X" "$TMPD/tile.html" --count mode --count chunk
expect_rc 0; expect_out "count mode 1"; expect_out "count chunk 32"

finish
