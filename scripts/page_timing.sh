#!/bin/sh
# page_timing.sh PAGE.html [RUNS]: how long headless Chromium takes to open a page of smemlab's
# (docs/analyzer.md quotes it): a throw-away harness page loads PAGE in a 1400 x 1800 frame and
# prints the time to its first paint, to its load event (the whole page parsed) and the layout it
# then forces. Needs chromium (Debian: apt-get install -y chromium).
set -eu
PAGE=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
RUNS=${2:-3}
command -v chromium >/dev/null || { echo "page_timing: chromium is not installed" >&2; exit 77; }
H=$(mktemp -d)
trap 'rm -rf "$H"' EXIT
cp "$PAGE" "$H/page.html"
cat >"$H/harness.html" <<'HTML'
<!DOCTYPE html><html><body><pre id='out'></pre><script>
const f = document.createElement('iframe');
f.style.width = '1400px'; f.style.height = '1800px';
const t0 = performance.now();
f.onload = () => {
  const t1 = performance.now(), h = f.contentDocument.body.scrollHeight, t2 = performance.now();
  const paint = f.contentWindow.performance.getEntriesByName('first-contentful-paint')[0];
  document.getElementById('out').textContent = 'first paint ' + (paint ? paint.startTime.toFixed(0) : '?') +
    ' ms, load ' + (t1 - t0).toFixed(0) + ' ms, layout ' + (t2 - t1).toFixed(0) + ' ms (height ' + h + ' px)';
};
f.src = 'page.html'; document.body.appendChild(f);
</script></body></html>
HTML
i=0
while [ "$i" -lt "$RUNS" ]; do
    chromium --headless --no-sandbox --disable-gpu --allow-file-access-from-files \
        --dump-dom "file://$H/harness.html" 2>/dev/null | grep -o 'first paint [0-9?][^<]*' || echo "no result"
    i=$((i + 1))
done
