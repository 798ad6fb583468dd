/* IDA* on the 4x4 board with dense-ranked additive pattern databases: the fast path of the numba
 * kernel (solver/search/kernel.py, _search), compiled with the system C compiler on first use and
 * called through ctypes (which releases the GIL, so threads share one search): see
 * solver/search/native.py.
 *
 * It is the same search as the numba kernel, step for step: children in UP, DOWN, LEFT, RIGHT
 * order (the blank's direction), except that on the route remembered from the previous iteration
 * (pv) its next step goes first; a move that completes a redundant route skipped (prune, the
 * automaton of solver/search/move_pruning.py; the move back is one); a child judged on Manhattan
 * first and then on each set of pattern databases in turn, dropped as soon as one proves it too
 * far; the same counters and the same split protocol (d0, single, collect_depth, pv, best). So it
 * expands the same nodes and returns the same path and counts (tests/solver/search/test_native.py
 * checks this). What differs is the cost of a node:
 *
 * - a pattern's dense rank is updated along the move instead of recomputed from seven cells: a
 *   tile sliding sideways in a set's frame changes its own digit by one (rank +- w[i]); sliding
 *   up or down it passes three cells, and only the pattern tiles there change a digit. Both are
 *   one formula over tables the caller precomputes (Spec.moves, passed, tile_weight), with no
 *   branch: which tiles a move passes is data, and mispredicted branches on it cost more than
 *   the table reads (measured: bench/kernels.py);
 * - a table byte's three base-6 entries are decoded by a 256-entry lookup, not a switch (a quad
 *   table's four 2-bit entries by a shift);
 * - the search is compiled once per number of sets (search4 picks the copy);
 * - the state saved per depth is the moved tile's slot in each set, not every slot;
 * - a one-tile pattern is skipped: it always needs exactly its Manhattan distance.
 *
 * Invariants (checked by the caller, native.spec_array): 16 cells; at most MAX_SETS sets and
 * MAX_SLOTS slots; every slot is dense with 2..MAX_PATTERN tiles or holds a single tile; the
 * board is solvable and path has room for bound + 1 cells; pv and best have path_len + 2 cells;
 * prune is an automaton of fewer than 32,768 states, four int16 each (native.NativeKernel checks).
 */
#include <stdint.h>
#include <string.h>

#define NN 16
#define MAX_SETS 4
#define MAX_SLOTS 8
#define MAX_PATTERN 8
#define MAX_DEPTH 1000
enum { FOUND = 0, LIMIT = 1, TOO_DEEP = 2, NOT_FOUND = 3, FULL = 4 };

/* The heuristic's layout, filled by the caller (solver/search/native.py: spec_array). */
typedef struct {
    int64_t sets;
    int64_t slot_of[MAX_SETS][NN];   /* slot of tile t in set s, or -1 (one-tile pattern) */
    int64_t pos_of[MAX_SETS][NN];    /* tile t's position in its slot's pattern */
    /* set_frame, set_unframe and set_moves: what older kernels read when every slot of a set had
       the set's frame; kept so that the layout only grows (bench/kernels.py --against) */
    int64_t set_frame[MAX_SETS][NN];
    int64_t set_unframe[MAX_SETS][NN];
    int64_t offset[MAX_SLOTS];       /* first byte of the slot's table */
    int64_t weight[MAX_SLOTS][MAX_PATTERN]; /* rank weight of pattern position i */
    /* the rank along a move, without a branch (native._move_tables says how) */
    int64_t tile_weight[MAX_SETS][NN];     /* weight of tile t's position in its slot */
    int64_t passed[MAX_SETS][NN][NN];      /* rank change when tile t, crossing rows, passes tile u */
    int64_t set_moves[MAX_SETS][NN][4][8];
    int64_t frame[MAX_SLOTS][NN];          /* board cell -> the cell the slot's table sees */
    int64_t moves[MAX_SLOTS][NN][4][8];    /* blank cell, direction: sign, mult, three cells passed */
    int64_t quad[MAX_SLOTS];               /* 1: four 2-bit entries per byte; 0: three base-6 ones */
} Spec;

/* digits[byte][k]: the kth base-6 digit of a table byte (three entries per byte) */
static uint8_t digits[256][4];

static inline int64_t entry(const uint8_t *pdb, int64_t offset, int64_t index, int64_t quad)
{
    if (quad)
        return pdb[offset + (index >> 2)] >> ((index & 3) * 2) & 3;
    int64_t third = index / 3;
    return digits[pdb[offset + third]][index - 3 * third];
}

/* The rank of slot sl (tile t's in set s) after t slides from its cell into the blank's cell b from
 * direction k; board has the sentinel cell (always 0) that sideways moves name. Branch-free: which
 * tiles a move passes is data the branch predictor cannot learn. */
static inline int64_t moved_rank(const Spec *sp, int s, int64_t sl, int t, int64_t b, int k, int64_t rank,
                                 const uint8_t *board)
{
    const int64_t *m = sp->moves[sl][b][k], *passed = sp->passed[s][t];
    int64_t delta = m[1] * sp->tile_weight[s][t] + passed[board[m[2]]] + passed[board[m[3]]] + passed[board[m[4]]];
    return rank + m[0] * delta;
}

/* The direction from cell (the route's cell at depth d) to the remembered route's next cell, or -1
 * where the route ends there. pv: the route's length in cells, then its cells. */
static inline int route_dir(const int64_t *pv, int64_t cell, int64_t d, const int64_t nbr[][4])
{
    if (pv[0] <= d + 1)
        return -1;
    for (int k = 0; k < 4; k++)
        if (nbr[cell][k] == pv[2 + d])
            return k;
    return -1;
}

/* route_dir at depth d if the search is on the remembered route there (path[0..d] is its start), else -1. */
static inline int route_step(const int64_t *pv, const int64_t *path, int64_t d, const int64_t nbr[][4])
{
    if (pv[0] <= d + 1)
        return -1;
    for (int64_t j = 0; j <= d; j++)
        if (pv[1 + j] != path[j])
            return -1;
    return route_dir(pv, path[d], d, nbr);
}

static int64_t md[NN][NN];
static int64_t nbr[NN][4];
static int tables_ready = 0;

static void init_tables(void)
{
    if (tables_ready)
        return;
    for (int p = 0; p < NN; p++) {
        int r = p / 4, c = p % 4;
        nbr[p][0] = r > 0 ? p - 4 : -1;
        nbr[p][1] = r < 3 ? p + 4 : -1;
        nbr[p][2] = c > 0 ? p - 1 : -1;
        nbr[p][3] = c < 3 ? p + 1 : -1;
        for (int t = 1; t < NN; t++) {
            int g = t - 1, dr = r - g / 4, dc = c - g % 4;
            md[t][p] = (dr < 0 ? -dr : dr) + (dc < 0 ? -dc : dc);
        }
        md[0][p] = 0;
    }
    for (int byte = 0; byte < 256; byte++) {
        digits[byte][0] = (uint8_t)(byte % 6);
        digits[byte][1] = (uint8_t)(byte / 6 % 6);
        digits[byte][2] = (uint8_t)(byte / 36);
    }
    tables_ready = 1; /* idempotent: a race between threads writes the same values */
}

/* The numba kernel's _search for 4x4 dense pattern databases; same arguments and results
 * (board is read, never written). */
static inline __attribute__((always_inline)) int64_t
search_sets(const int64_t *board_in, int64_t node_limit, const uint8_t *pdb, const Spec *sp, int64_t *path,
            int64_t path_len, int64_t *counters, int64_t d0, int64_t bound_in, int64_t single, int64_t collect_depth,
            int64_t *entries, int64_t entry_rows, int64_t entry_cols, int64_t *entry_counts, int64_t *pv, int64_t *best,
            const int16_t *prune, const int sets)
{
    init_tables();
    int64_t depth_cap = path_len - 1 < MAX_DEPTH ? path_len - 1 : MAX_DEPTH;
    uint8_t board[NN + 1], nxt[MAX_DEPTH + 2];
    int8_t pv_dir[MAX_DEPTH + 2]; /* per depth: the remembered route's next direction there, or -1 */
    int16_t state[MAX_DEPTH + 2]; /* per depth: the pruning automaton's state after the route to it */
    const int track = pv[0] >= 0;
    /* the live state (Manhattan, each slot's rank and entry, each set's sum) and, per depth,
       what the move into that depth replaced, restored when the search backs out of it */
    int64_t man = 0, rank[MAX_SLOTS] = {0}, ev[MAX_SLOTS] = {0}, sum[MAX_SETS] = {0};
    int64_t sv_man[MAX_DEPTH + 2], sv_rank[MAX_DEPTH + 2][MAX_SETS], sv_ev[MAX_DEPTH + 2][MAX_SETS],
        sv_sum[MAX_DEPTH + 2][MAX_SETS];
    int64_t new_rank[MAX_SETS], new_ev[MAX_SETS], new_sum[MAX_SETS];
    for (int p = 0; p < NN; p++)
        board[p] = (uint8_t)board_in[p];
    board[NN] = 0;
    for (int64_t i = 1; i <= d0; i++) {
        board[path[i - 1]] = board[path[i]];
        board[path[i]] = 0;
    }
    state[0] = 0;
    for (int64_t i = 1; i <= d0; i++) { /* the route given: its moves' directions through the automaton */
        int64_t step = path[i] - path[i - 1];
        int k = step == -4 ? 0 : step == 4 ? 1 : step == -1 ? 2 : 3, next = prune[state[i - 1] * 4 + k];
        state[i] = (int16_t)(next < 0 ? 0 : next); /* never: the route was accepted by this search */
    }
    int64_t where[NN];
    for (int p = 0; p < NN; p++) {
        where[board[p]] = p;
        man += md[board[p]][p];
    }
    int64_t root_top = 0;
    for (int s = 0; s < sets; s++) {
        int64_t cells[MAX_SLOTS][MAX_PATTERN], size[MAX_SLOTS] = {0};
        for (int t = 1; t < NN; t++) {
            int64_t sl = sp->slot_of[s][t];
            if (sl >= 0) {
                cells[sl][sp->pos_of[s][t]] = sp->frame[sl][where[t]];
                size[sl]++;
            }
        }
        for (int64_t sl = 0; sl < MAX_SLOTS; sl++) {
            if (!size[sl])
                continue;
            int64_t r = 0;
            for (int64_t i = 0; i < size[sl]; i++) {
                int64_t lower = 0;
                for (int64_t j = 0; j < i; j++)
                    lower += cells[sl][j] < cells[sl][i];
                r += (cells[sl][i] - lower) * sp->weight[sl][i];
            }
            rank[sl] = r;
            ev[sl] = entry(pdb, sp->offset[sl], r, sp->quad[sl]);
            sum[s] += ev[sl];
        }
        if (sum[s] > root_top)
            root_top = sum[s];
    }
    int64_t h0 = man + 2 * root_top;
    int64_t expanded = 0, generated = 0, collected = 0;
    int64_t bound = bound_in < 0 ? h0 : bound_in;
    int64_t status = NOT_FOUND;
    int64_t d = d0;
    path[d0] = where[0];
    counters[4] = 0;
    while (1) {
        counters[3] = bound;
        if (h0 == 0) {
            counters[2] = d0;
            status = FOUND;
            break;
        }
        if (bound > depth_cap) {
            status = TOO_DEEP;
            break;
        }
        int64_t next_bound = (int64_t)1 << 40;
        d = d0;
        nxt[d0] = 0;
        pv_dir[d0] = (int8_t)(track ? route_step(pv, path, d0, nbr) : -1);
        best[0] = -1;
        best[1] = 0;
        if (d0 == 0) {
            expanded++;
            if (expanded > node_limit) {
                status = LIMIT;
                break;
            }
        }
        while (1) {
            int64_t b = path[d];
            int i = nxt[d];
            if (i == 4) {
                if (d == d0)
                    break;
                /* back out of the move that led here: the tile returns from path[d-1] to b */
                int64_t dst = path[d - 1];
                int t = board[dst];
                board[b] = (uint8_t)t;
                board[dst] = 0;
                man = sv_man[d];
                for (int s = 0; s < sets; s++) {
                    int64_t sl = sp->slot_of[s][t];
                    if (sl >= 0) {
                        rank[sl] = sv_rank[d][s];
                        ev[sl] = sv_ev[d][s];
                    }
                    sum[s] = sv_sum[d][s];
                }
                d--;
                continue;
            }
            nxt[d] = (uint8_t)(i + 1);
            /* the children in direction order, except that the remembered route's step goes first */
            int p = pv_dir[d], k = p < 0 ? i : i == 0 ? p : i - 1 < p ? i - 1 : i;
            int64_t nb = nbr[b][k];
            if (nb < 0)
                continue;
            int next_state = prune[state[d] * 4 + k];
            if (next_state < 0)
                continue;
            generated++;
            /* the tile on nb slides into the blank's cell b */
            int t = board[nb];
            int64_t man2 = man + md[t][b] - md[t][nb];
            int64_t h = man2, f = d + 1 + h;
            if (f <= bound) {
                int64_t top = 0;
                for (int s = 0; s < sets; s++) {
                    int64_t sl = sp->slot_of[s][t];
                    new_sum[s] = sum[s];
                    if (sl >= 0) {
                        new_rank[s] = moved_rank(sp, s, sl, t, b, k, rank[sl], board);
                        new_ev[s] = entry(pdb, sp->offset[sl], new_rank[s], sp->quad[sl]);
                        new_sum[s] += new_ev[s] - ev[sl];
                    }
                    if (new_sum[s] > top) {
                        top = new_sum[s];
                        h = man2 + 2 * top;
                        f = d + 1 + h;
                        if (f > bound)
                            break;
                    }
                }
            }
            if (f > bound) {
                if (f < next_bound)
                    next_bound = f;
                continue;
            }
            /* accept the child (every set was read): remember what to restore, then commit */
            int64_t s1 = d + 1;
            sv_man[s1] = man;
            man = man2;
            for (int s = 0; s < sets; s++) {
                int64_t sl = sp->slot_of[s][t];
                if (sl >= 0) {
                    sv_rank[s1][s] = rank[sl];
                    sv_ev[s1][s] = ev[sl];
                    rank[sl] = new_rank[s];
                    ev[sl] = new_ev[s];
                }
                sv_sum[s1][s] = sum[s];
                sum[s] = new_sum[s];
            }
            board[b] = (uint8_t)t;
            board[nb] = 0;
            d = s1;
            path[d] = nb;
            nxt[d] = 0;
            state[d] = (int16_t)next_state;
            pv_dir[d] = (int8_t)(pv_dir[d - 1] == k ? route_dir(pv, nb, d, nbr) : -1);
            if (track) {
                /* the lowest h met, the deepest on a tie, the first met on a tie of both */
                if (best[0] < 0 || h < best[0] || (h == best[0] && d > best[1])) {
                    best[0] = h;
                    best[1] = d;
                    memcpy(best + 2, path, (size_t)(d + 1) * sizeof(int64_t));
                }
            }
            if (collect_depth > 0 && (h == 0 || d == collect_depth)) {
                if (h != 0)
                    expanded++;
                for (int64_t i = 0; i <= d && i < entry_cols; i++)
                    entries[collected * entry_cols + i] = path[i];
                entry_counts[collected * 4 + 0] = expanded;
                entry_counts[collected * 4 + 1] = generated;
                entry_counts[collected * 4 + 2] = d;
                entry_counts[collected * 4 + 3] = h == 0 ? 1 : 0;
                collected++;
                counters[4] = collected;
                if (h == 0) {
                    counters[3] = next_bound;
                    break;
                }
                if (collected == entry_rows) {
                    status = FULL;
                    break;
                }
                nxt[d] = 4;
                continue;
            }
            if (h == 0) {
                counters[2] = d;
                status = FOUND;
                break;
            }
            expanded++;
            if (expanded > node_limit) {
                status = LIMIT;
                break;
            }
        }
        if (status != NOT_FOUND || single || collect_depth > 0) {
            if (status == NOT_FOUND)
                counters[3] = next_bound;
            break;
        }
        bound = next_bound;
        if (track) { /* the next iteration tries this one's best route first */
            pv[0] = best[0] < 0 ? 0 : best[1] + 1;
            memcpy(pv + 1, best + 2, (size_t)(pv[0] > 0 ? pv[0] : 0) * sizeof(int64_t));
        }
    }
    counters[0] = expanded;
    counters[1] = generated;
    return status;
}

/* One copy of the search per number of sets: with the count a compile-time constant the loops over
 * sets compile tighter (1.14-1.19x on Korf's 100 against one copy with the count read at run time). */
int64_t search4(const int64_t *board_in, int64_t node_limit, const uint8_t *pdb, const Spec *sp,
                int64_t *path, int64_t path_len, int64_t *counters, int64_t d0, int64_t bound_in,
                int64_t single, int64_t collect_depth, int64_t *entries, int64_t entry_rows, int64_t entry_cols,
                int64_t *entry_counts, int64_t *pv, int64_t *best, const int16_t *prune)
{
#define SEARCH(k) search_sets(board_in, node_limit, pdb, sp, path, path_len, counters, d0, bound_in, single, \
                              collect_depth, entries, entry_rows, entry_cols, entry_counts, pv, best, prune, k)
    switch (sp->sets) {
    case 1: return SEARCH(1);
    case 2: return SEARCH(2);
    case 3: return SEARCH(3);
    default: return SEARCH(MAX_SETS);
    }
#undef SEARCH
}
