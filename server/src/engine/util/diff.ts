/**
 * A small line diff for `--fix-dry-run`: common prefix and suffix, then an LCS over the middle
 * (bounded; a larger middle is shown as one replaced block). Fixes touch a few lines, so this is
 * exact in practice.
 */
export function unifiedDiff(path: string, a: string, b: string, context = 3): string {
  if (a === b) return '';
  const al = a.split(/(?<=\n)/);
  const bl = b.split(/(?<=\n)/);
  let pre = 0;
  while (pre < al.length && pre < bl.length && al[pre] === bl[pre]) pre++;
  let suf = 0;
  while (suf < al.length - pre && suf < bl.length - pre && al[al.length - 1 - suf] === bl[bl.length - 1 - suf]) suf++;
  const am = al.slice(pre, al.length - suf);
  const bm = bl.slice(pre, bl.length - suf);
  type Op = [' ' | '-' | '+', string];
  const ops: Op[] = [];
  if (am.length * bm.length <= 4_000_000) {
    const n = am.length;
    const m = bm.length;
    const dp: Uint32Array[] = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i][j] = am[i] === bm[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1]);
    let i = 0;
    let j = 0;
    while (i < n || j < m) {
      if (i < n && j < m && am[i] === bm[j]) {
        ops.push([' ', am[i]]);
        i++;
        j++;
      } else if (j < m && (i === n || dp[i][j + 1] >= dp[i + 1][j])) ops.push(['+', bm[j++]]);
      else ops.push(['-', am[i++]]);
    }
  } else {
    for (const l of am) ops.push(['-', l]);
    for (const l of bm) ops.push(['+', l]);
  }
  const all: Op[] = [...al.slice(0, pre).map((l): Op => [' ', l]), ...ops, ...al.slice(al.length - suf).map((l): Op => [' ', l])];
  const out: string[] = [`--- a/${path}\n`, `+++ b/${path}\n`];
  let k = 0;
  while (k < all.length) {
    while (k < all.length && all[k][0] === ' ') k++;
    if (k >= all.length) break;
    let start = Math.max(0, k - context);
    let end = k;
    while (end < all.length) {
      if (all[end][0] !== ' ') {
        end++;
        continue;
      }
      let run = 0;
      while (end + run < all.length && all[end + run][0] === ' ') run++;
      if (end + run >= all.length || run > context * 2) {
        end = Math.min(all.length, end + context);
        break;
      }
      end += run;
    }
    let aStart = 1;
    let bStart = 1;
    for (let x = 0; x < start; x++) {
      if (all[x][0] !== '+') aStart++;
      if (all[x][0] !== '-') bStart++;
    }
    const hunk = all.slice(start, end);
    const aLen = hunk.filter((o) => o[0] !== '+').length;
    const bLen = hunk.filter((o) => o[0] !== '-').length;
    out.push(`@@ -${aStart},${aLen} +${bStart},${bLen} @@\n`);
    for (const [op, line] of hunk) out.push(op + (line.endsWith('\n') ? line : line + '\n\\ No newline at end of file\n'));
    k = end;
    start = end;
  }
  return out.join('');
}
