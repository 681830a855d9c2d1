# turn-boards.awk - turns every board the console draws by 180 degrees, labels and all: the
# console's drawings from before it showed PDN's orientation (tests/data/ponder-transcripts, the
# original program's runs, draw Black's side at the bottom), read as they are drawn now.
#
# A drawing is the 17 lines after a `;[FEN "..."]' line: a top border, then per board row a line
# of cells `  |(w)|   |...|' and a border `  +---+32-+...+' holding the numbers of the squares
# above it. Turned around, row i shows row 7 - i with its cells (and their numbers) in reverse
# order; the top border is the same.

# reverse(LINE, SEP): "  " SEP seg8 SEP seg7 ... SEP seg1 SEP for "  " SEP seg1 SEP ... seg8 SEP.
function reverse(line, sep,    n, parts, out, k) {
    n = split(substr(line, 4, length(line) - 4), parts, sep)
    out = "  " sep
    for (k = n; k >= 1; k--)
        out = out parts[k] sep
    return out
}
{
    if (left > 0) {
        held[17 - left] = $0
        left--
        if (left == 0) {
            print held[0]
            for (i = 0; i < 8; i++) {
                print reverse(held[1 + 2 * (7 - i)], "|")
                print reverse(held[2 + 2 * (7 - i)], "+")
            }
        }
        next
    }
    print
    if ($0 ~ /^;\[FEN "/)
        left = 17
}
