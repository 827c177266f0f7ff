/* The Amber solver's inner searches, compiled: each the very search of a Python function, state for state.
 *
 * ``search`` is ``_search_py`` in ``amber.py`` (below in detail); ``rejoin``, ``carry`` and ``carry_jump`` are the
 * shortening's ``_rejoin_py``, ``_carry_py`` and ``_carry_jump_py`` (``amber_shorten.py``). The others are Pattern of
 * Amber's (``amber_pattern.py``): ``never_docks`` is ``_never_docks``, ``cached_dock`` ``PatternPlanner.dock`` with
 * its cache (its search ``_dock_py``), ``exchange`` ``dock_exchange``, ``merge_dock`` ``_merge_search_py``,
 * ``kind_search`` ``_kind_search_py``, ``balance_children`` ``_balance_children_py`` and ``balance_search``
 * ``_balance_search_py``. ``compiled.py``
 * loads the module; ``tests/test_amber_core.py`` checks every one against its Python reference.
 *
 * ``amber.py``'s ``_search_py`` is the reference: this file is the same weighted best-first search over
 * swaps (the same keys, bit for bit, the same tie-breaks, the same states expanded in the same order, the
 * same path, end position, count of states and nearest position), about twenty times cheaper per state.
 * ``tests/test_amber_core.py`` checks the two against each other on every layout and every kind of search.
 * What makes "the same" hold:
 *
 *  - the swaps of a state are iterated in the order of the Python ``set`` that ``_Board._moves_masked``
 *    fills: the same walk inserts the same pairs in the same order into a copy of CPython's set table (open
 *    addressing, nine linear probes, then the perturbed jump; the table grows to four times the entries
 *    when three fifths are filled), with each pair's ``hash((p, q))`` handed over from Python;
 *  - the keys are computed with the very float operations of the Python loops (compiled without
 *    contracting a multiply and an add into one, which would round differently);
 *  - the random tie-breaks draw from a copy of CPython's Mersenne Twister, started from the state of
 *    ``random.Random(seed)`` handed over from Python;
 *  - heap entries are ordered as the Python tuples (key, tie, parent node, rank), which never tie, so
 *    every pop takes the same entry. Children are all pushed at once (the Python search defers most of
 *    them, which pops the same entries in the same order), and a state's lists are computed afresh
 *    (the Python search derives them from its parent's: the same values).
 *
 * Cells and cards are small ints (at most 128: masks are 128-bit). The GIL is released while searching;
 * every 4096 states the search takes it back for a moment to let signals (Ctrl-C) through.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 mask_t;
#define MAXN 128
#define ONE(c) (((mask_t)1) << (c))
#define BIT(m, c) ((int)(((m) >> (c)) & 1))

static inline int popcount(mask_t m) {
    return __builtin_popcountll((uint64_t)m) + __builtin_popcountll((uint64_t)(m >> 64));
}

static inline int lowest(mask_t m) {
    uint64_t lo = (uint64_t)m;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(m >> 64));
}

/* ---- CPython's Mersenne Twister (random.Random.random) ---- */

typedef struct {
    uint32_t mt[624];
    int index;
} Twister;

static uint32_t twister_next(Twister *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = r->mt;
    if (r->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + 397] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < 623; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[623] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[623] = mt[396] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static double twister_random(Twister *r) {
    uint32_t a = twister_next(r) >> 5, b = twister_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* the Twister from random.getstate()[1] (624 words and the index); -1 with an exception set */
static int twister_arg(PyObject *o, const char *who, Twister *r) {
    if (!PyTuple_Check(o) || PyTuple_GET_SIZE(o) != 625) {
        PyErr_Format(PyExc_ValueError, "_amber_core.%s: twister must be random.getstate()[1]", who);
        return -1;
    }
    for (int i = 0; i < 625; i++) {
        unsigned long v = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(o, i));
        if (v == (unsigned long)-1 && PyErr_Occurred()) return -1;
        if (i < 624)
            r->mt[i] = (uint32_t)v;
        else
            r->index = (int)v;
    }
    return 0;
}

/* ---- the heap: entries ordered as the Python tuples (key, tie, parent, rank) ---- */

enum { ESTIMATE = 0, EXACT = 1, LOWER = 2 };  /* how an entry's key was weighed: evaluated False, True, a float */

typedef struct {
    double key, tie;
    int32_t parent;
    int16_t a, b;
    uint16_t rank;
    int8_t kind, lo;  /* kind LOWER: pushed with eta delta's lower bound lo */
} Entry;

static inline int entry_less(const Entry *x, const Entry *y) {
    if (x->key != y->key) return x->key < y->key;
    if (x->tie != y->tie) return x->tie < y->tie;
    if (x->parent != y->parent) return x->parent < y->parent;
    return x->rank < y->rank;
}

/* a binary min-heap of entries of type T ordered by LESS (a total order: equal entries never meet) */
#define DEFINE_HEAP(NAME, T, LESS)                                        \
    typedef struct {                                                      \
        T *e;                                                             \
        size_t len, cap;                                                  \
    } NAME;                                                               \
    static int NAME##_push(NAME *h, T x) {                                \
        if (h->len == h->cap) {                                           \
            size_t cap = h->cap ? h->cap * 2 : 4096;                      \
            T *e = realloc(h->e, cap * sizeof(T));                        \
            if (!e) return -1;                                            \
            h->e = e;                                                     \
            h->cap = cap;                                                 \
        }                                                                 \
        size_t i = h->len++;                                              \
        while (i > 0) {                                                   \
            size_t up = (i - 1) >> 1;                                     \
            if (!LESS(&x, &h->e[up])) break;                              \
            h->e[i] = h->e[up];                                           \
            i = up;                                                       \
        }                                                                 \
        h->e[i] = x;                                                      \
        return 0;                                                         \
    }                                                                     \
    static T NAME##_pop(NAME *h) {                                        \
        T top = h->e[0];                                                  \
        T last = h->e[--h->len];                                          \
        size_t n = h->len, i = 0;                                         \
        for (;;) {                                                        \
            size_t c = 2 * i + 1;                                         \
            if (c >= n) break;                                            \
            if (c + 1 < n && LESS(&h->e[c + 1], &h->e[c])) c++;           \
            if (!LESS(&h->e[c], &last)) break;                            \
            h->e[i] = h->e[c];                                            \
            i = c;                                                        \
        }                                                                 \
        if (n) h->e[i] = last;                                            \
        return top;                                                       \
    }

DEFINE_HEAP(Heap, Entry, entry_less)

/* ---- the search ---- */

#define LINEAR_PROBES 9
#define PERTURB_SHIFT 5
#define MAX_SWAPS 8128  /* the swaps of a state: at most n (n - 1) / 2 for n <= 128 cells */

/* a copy of CPython's set of (p, q) tuples, p < q, keyed p * n + q: two tables, the second for growing */
typedef struct {
    int32_t *keys[2];
    int64_t *hashes[2];
    int cur, n;
    size_t mask, fill;
    const int64_t *pair_hash;  /* hash((p, q)) of every pair, n * n */
} PairSet;

typedef struct {
    double g;
    int32_t parent;
    int16_t a, b;
    int16_t wrong, out;
    uint64_t hash;
} Node;

typedef struct {
    /* geometry */
    int n, lone, nwalk;
    uint8_t target[MAXN], nb[MAXN][2], adj[MAXN][4], nadj[MAXN], walk[MAXN][5];
    mask_t adjmask[MAXN], allow[MAXN];
    /* the search's setting */
    double weight, alpha, beta, gamma, eta, charge_lone, charge_other, tolerance;
    int exact, lazy, focus, sort_groups_only, count_wrong, restricted, size;
    uint8_t region[MAXN], inside[MAXN], counted[MAXN], sadable[MAXN], group[MAXN], cell_group[MAXN];
    /* key increments weight * (dh + eta * lo) of the lazy and estimating loops: [merge][b + 2][c + 2][-lo] */
    double steps[2][5][5][32];
    PairSet set;  /* the swaps of the state expanded, in the order of the Python set */
    /* nodes */
    Node *nodes;
    uint8_t *ats;
    size_t nnodes, capnodes;
    int32_t *seen;
    size_t seenmask, nseen;
    Twister rng;
    int seeded;
} Search;

static uint64_t zobrist[MAXN][MAXN];

static void set_insert_clean(int32_t *keys, int64_t *hashes, size_t mask, int32_t key, int64_t hash) {
    size_t perturb = (size_t)hash, i = (size_t)hash & mask, e;
    for (;;) {
        e = i;
        if (keys[e] < 0) break;
        if (i + LINEAR_PROBES <= mask) {
            int found = 0;
            for (int j = 0; j < LINEAR_PROBES; j++) {
                e++;
                if (keys[e] < 0) {
                    found = 1;
                    break;
                }
            }
            if (found) break;
        }
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
    keys[e] = key;
    hashes[e] = hash;
}

static int set_init(PairSet *set, int n, const int64_t *pair_hash) {
    set->n = n;
    set->pair_hash = pair_hash;
    /* the largest table CPython makes for all n (n - 1) / 2 pairs (it grows to over four times the entries) */
    size_t slots = 8, pairs = (size_t)n * (n - 1) / 2;
    while (slots <= pairs * 4) slots <<= 1;
    for (int i = 0; i < 2; i++) {
        set->keys[i] = malloc(slots * sizeof(int32_t));
        set->hashes[i] = malloc(slots * sizeof(int64_t));
    }
    return set->keys[0] && set->keys[1] && set->hashes[0] && set->hashes[1] ? 0 : -1;
}

static void set_free(PairSet *set) {
    for (int i = 0; i < 2; i++) {
        free(set->keys[i]);
        free(set->hashes[i]);
    }
}

static void set_clear(PairSet *set) {
    set->cur = 0;
    set->mask = 7;
    set->fill = 0;
    for (int i = 0; i < 8; i++) set->keys[0][i] = -1;
}

/* the pair (p, q), p < q, added to the set as CPython's set.add adds the tuple */
static void set_add(PairSet *set, int p, int q) {
    int32_t key = p * set->n + q;
    int64_t hash = set->pair_hash[key];
    int32_t *keys = set->keys[set->cur];
    int64_t *hashes = set->hashes[set->cur];
    size_t mask = set->mask, i = (size_t)hash & mask, perturb = (size_t)hash, e;
    for (;;) {
        e = i;
        int probes = (i + LINEAR_PROBES <= mask) ? LINEAR_PROBES : 0;
        do {
            if (keys[e] < 0) goto found;
            if (hashes[e] == hash && keys[e] == key) return;
            e++;
        } while (probes--);
        perturb >>= PERTURB_SHIFT;
        i = (i * 5 + 1 + perturb) & mask;
    }
found:
    keys[e] = key;
    hashes[e] = hash;
    set->fill++;
    if (set->fill * 5 < mask * 3) return;
    size_t minused = set->fill > 50000 ? set->fill * 2 : set->fill * 4, size = 8;
    while (size <= minused) size <<= 1;
    int other = 1 - set->cur;
    int32_t *nkeys = set->keys[other];
    int64_t *nhashes = set->hashes[other];
    for (size_t k = 0; k < size; k++) nkeys[k] = -1;
    for (size_t k = 0; k <= mask; k++)
        if (keys[k] >= 0) set_insert_clean(nkeys, nhashes, size - 1, keys[k], hashes[k]);
    set->cur = other;
    set->mask = size - 1;
}

static inline void add_pair(Search *s, int a, int b) {
    if (a < b)
        set_add(&s->set, a, b);
    else
        set_add(&s->set, b, a);
}

/* _Board._moves_masked, into the set */
static void walk_moves(Search *s, const uint8_t *at, const uint8_t *pos, const mask_t *welcome) {
    set_clear(&s->set);
    for (int w = 0; w < s->nwalk; w++) {
        int x = s->walk[w][0], m1 = s->walk[w][1], m2 = s->walk[w][2], s1 = s->walk[w][3], s2 = s->walk[w][4];
        int a = pos[x], q1 = pos[m1], q2 = pos[m2], least;
        mask_t ok, v;
        if (a == s->lone) {
            ok = s->allow[a];
            least = -1;
        } else {
            ok = welcome[a];
            least = x;
            int first = s1 && BIT(s->adjmask[a], q1), second = s2 && BIT(s->adjmask[a], q2);
            if (first) {
                ok |= ONE(q1);
                add_pair(s, a, q1);
            }
            if (second) {
                ok |= ONE(q2);
                for (v = s->adjmask[q1] & ok; v; v &= v - 1) {
                    int b = lowest(v);
                    if (at[b] > x) add_pair(s, a, b);
                }
                add_pair(s, a, q2);
                for (v = s->adjmask[q2] & ok; v; v &= v - 1) {
                    int b = lowest(v);
                    if (at[b] > x) add_pair(s, a, b);
                }
                continue;
            }
        }
        for (v = s->adjmask[q1] & ok; v; v &= v - 1) {
            int b = lowest(v);
            if (at[b] > least) add_pair(s, a, b);
        }
        for (v = s->adjmask[q2] & ok; v; v &= v - 1) {
            int b = lowest(v);
            if (at[b] > least) add_pair(s, a, b);
        }
    }
}

/* What the search reads of a position: where each card stands, the cycles (labels, number), the welcome
   masks and the unhappy cells (among the sadable ones, when eta counts). */
typedef struct {
    uint8_t pos[MAXN];
    int16_t cyc[MAXN];
    int k;
    mask_t welcome[MAXN], sadm;
    uint8_t sad[MAXN];
    int unhappy;
} Lists;

static void read_position(const Search *s, const uint8_t *at, Lists *L, int with_moves) {
    int n = s->n;
    mask_t cellnb[MAXN + 1];
    for (int c = 0; c < n; c++) L->pos[at[c]] = (uint8_t)c;
    for (int c = 0; c < n; c++) L->cyc[c] = -1;
    int k = 0;
    for (int r = 0; r < s->size; r++) {
        int i = s->region[r];
        if (L->cyc[i] < 0) {
            int j = i;
            while (L->cyc[j] < 0) {
                L->cyc[j] = (int16_t)k;
                j = s->target[at[j]];
            }
            k++;
        }
    }
    L->k = k;
    for (int c = 0; c < n; c++) {
        int x = at[c];
        cellnb[c] = ONE(L->pos[s->nb[x][0]]) | ONE(L->pos[s->nb[x][1]]);
    }
    cellnb[n] = 0;
    int unhappy = 0;
    mask_t sadm = 0;
    for (int c = 0; c < n; c++) {
        int sad = s->eta != 0.0 && s->sadable[c] && !(s->adjmask[c] & cellnb[c]);
        L->sad[c] = (uint8_t)sad;
        if (sad) {
            unhappy++;
            sadm |= ONE(c);
        }
    }
    L->unhappy = unhappy;
    L->sadm = sadm;
    if (with_moves)
        for (int c = 0; c < n; c++) {
            mask_t w = 0;
            for (int j = 0; j < s->nadj[c]; j++) w |= cellnb[s->adj[c][j]];
            L->welcome[c] = w & s->allow[c];
        }
}

/* is the card in cell c unhappy (the Python ``_Unhappy``): counts, and touches no rank-neighbour */
static inline int unhappy_at(const Search *s, const uint8_t *at, const uint8_t *pos, int c) {
    if (!s->inside[c] || c == s->lone) return 0;
    int x = at[c];
    mask_t m = s->adjmask[c];
    return (BIT(m, pos[s->nb[x][0]]) || BIT(m, pos[s->nb[x][1]])) ? 0 : 1;
}

/* the exact eta delta of swapping cells p and q of ``at`` (the Python ``eta_delta``) */
static int eta_delta(const Search *s, const uint8_t *at, const uint8_t *pos, const uint8_t *sad, int p, int q) {
    int x = at[p], y = at[q];
    int d = -(sad[p] + sad[q]);
    mask_t mp = s->adjmask[p], mq = s->adjmask[q], mpq = mp | mq;
    int joined = BIT(mp, q);
    int x1 = s->nb[x][0], x2 = s->nb[x][1], y1 = s->nb[y][0], y2 = s->nb[y][1];
    int zs[4], nz = 0;
    zs[nz++] = x1;
    zs[nz++] = x2;
    if (y1 != x1 && y1 != x2) zs[nz++] = y1;
    if (y2 != x1 && y2 != x2) zs[nz++] = y2;
    for (int i = 0; i < nz; i++) {
        int z = zs[i], c = pos[z];
        if (!BIT(mpq, c) || z == x || z == y || c == s->lone || !s->inside[c]) continue;
        int mult = joined ? 1 : BIT(mp, c) + BIT(mq, c);
        int z1 = s->nb[z][0], z2 = s->nb[z][1];
        mask_t m = s->adjmask[c];
        int c1 = z1 == x ? q : z1 == y ? p : pos[z1];
        int c2 = z2 == x ? q : z2 == y ? p : pos[z2];
        d += mult * (((BIT(m, c1) || BIT(m, c2)) ? 0 : 1) - sad[c]);
    }
    return d;
}

static inline int off_group(const Search *s, int cell, int card) {
    return s->counted[cell] && s->group[card] != s->cell_group[cell];
}

static inline uint64_t position_hash(const Search *s, const uint8_t *at) {
    uint64_t h = 0;
    for (int c = 0; c < s->n; c++) h ^= zobrist[c][at[c]];
    return h;
}

/* the node of position ``at`` (hash ``h``) among the seen ones, or -1 */
static int32_t seen_find(const Search *s, const uint8_t *at, uint64_t h) {
    size_t i = (size_t)h & s->seenmask;
    for (;;) {
        int32_t idx = s->seen[i];
        if (idx < 0) return -1;
        if (s->nodes[idx].hash == h && memcmp(s->ats + (size_t)idx * s->n, at, s->n) == 0) return idx;
        i = (i + 1) & s->seenmask;
    }
}

static int seen_add(Search *s, int32_t idx) {
    if ((s->nseen + 1) * 2 > s->seenmask + 1) {
        size_t size = (s->seenmask + 1) * 2;
        int32_t *t = malloc(size * sizeof(int32_t));
        if (!t) return -1;
        for (size_t i = 0; i < size; i++) t[i] = -1;
        for (size_t i = 0; i <= s->seenmask; i++) {
            int32_t j = s->seen[i];
            if (j >= 0) {
                size_t k = (size_t)s->nodes[j].hash & (size - 1);
                while (t[k] >= 0) k = (k + 1) & (size - 1);
                t[k] = j;
            }
        }
        free(s->seen);
        s->seen = t;
        s->seenmask = size - 1;
    }
    size_t i = (size_t)s->nodes[idx].hash & s->seenmask;
    while (s->seen[i] >= 0) i = (i + 1) & s->seenmask;
    s->seen[i] = idx;
    s->nseen++;
    return 0;
}

static int node_add(Search *s, const uint8_t *at, Node node) {
    if (s->nnodes == s->capnodes) {
        size_t cap = s->capnodes ? s->capnodes * 2 : 1024;
        Node *nodes = realloc(s->nodes, cap * sizeof(Node));
        if (!nodes) return -1;
        s->nodes = nodes;
        uint8_t *ats = realloc(s->ats, cap * (size_t)s->n);
        if (!ats) return -1;
        s->ats = ats;
        s->capnodes = cap;
    }
    s->nodes[s->nnodes] = node;
    memcpy(s->ats + s->nnodes * (size_t)s->n, at, s->n);
    s->nnodes++;
    return 0;
}

static PyObject *trace(const Search *s, int32_t idx) {
    Py_ssize_t len = 0;
    for (int32_t i = idx; s->nodes[i].parent >= 0; i = s->nodes[i].parent) len++;
    PyObject *path = PyList_New(len);
    if (!path) return NULL;
    for (int32_t i = idx; s->nodes[i].parent >= 0; i = s->nodes[i].parent) {
        PyObject *swap = Py_BuildValue("(ii)", s->nodes[i].a, s->nodes[i].b);
        if (!swap) {
            Py_DECREF(path);
            return NULL;
        }
        PyList_SET_ITEM(path, --len, swap);
    }
    return path;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int bytes_arg(PyObject *o, const char *what, Py_ssize_t want, const uint8_t **out) {
    if (!PyBytes_Check(o) || (want >= 0 && PyBytes_GET_SIZE(o) != want)) {
        PyErr_Format(PyExc_ValueError, "_amber_core.search: %s must be bytes of length %zd", what, want);
        return -1;
    }
    *out = (const uint8_t *)PyBytes_AS_STRING(o);
    return 0;
}

static void search_free(Search *s) {
    set_free(&s->set);
    free(s->nodes);
    free(s->ats);
    free(s->seen);
    free(s);
}

PyDoc_STRVAR(search_doc,
"search(geometry, start, region, group, cell_group, weights, flags, probe, node_limit, deadline, twister)\n"
"-> (path or None, end position, states expanded, (best path, best position, nearness, probed))\n\n"
"amber.py's _search_py, compiled (amber.py's _search_core packs the arguments).");

static PyObject *search(PyObject *self, PyObject *args) {
    PyObject *geometry, *start_o, *region_o, *group_o, *cell_group_o, *twister_o;
    double weight, alpha, beta, gamma, eta, charge_lone, charge_other, deadline;
    int exact, lazy, focus, sort_groups_only, probe_at, probe_near;
    long long node_limit;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!SOSS(ddddddd)(pppp)(ii)LdO", &PyTuple_Type, &geometry, &start_o, &region_o,
                          &group_o, &cell_group_o, &weight, &alpha, &beta, &gamma, &eta, &charge_lone,
                          &charge_other, &exact, &lazy, &focus, &sort_groups_only, &probe_at, &probe_near,
                          &node_limit, &deadline, &twister_o))
        return NULL;
    int n, lone;
    PyObject *target_o, *nb_o, *adj_o, *allow_o, *walk_o, *hash_o;
    if (!PyArg_ParseTuple(geometry, "iiSSSSSS", &n, &lone, &target_o, &nb_o, &adj_o, &allow_o, &walk_o, &hash_o))
        return NULL;
    if (n < 2 || n > MAXN) {
        PyErr_Format(PyExc_ValueError, "_amber_core.search: %d cells (2 to %d)", n, MAXN);
        return NULL;
    }
    const uint8_t *target, *nbs, *adj, *allow, *walk, *hashes, *start, *group, *cell_group, *region = NULL;
    if (bytes_arg(target_o, "target", n, &target) || bytes_arg(nb_o, "nb", 2 * n, &nbs) ||
        bytes_arg(adj_o, "adj", 4 * n, &adj) || bytes_arg(allow_o, "allow", (Py_ssize_t)n * n, &allow) ||
        bytes_arg(walk_o, "walk", -1, &walk) || bytes_arg(hash_o, "hashes", 8 * (Py_ssize_t)n * n, &hashes) ||
        bytes_arg(start_o, "start", n, &start) || bytes_arg(group_o, "group", n, &group) ||
        bytes_arg(cell_group_o, "cell_group", n, &cell_group))
        return NULL;
    Py_ssize_t nregion = n;
    if (region_o != Py_None) {
        if (bytes_arg(region_o, "region", -1, &region)) return NULL;
        nregion = PyBytes_GET_SIZE(region_o);
    }
    Search *s = calloc(1, sizeof(Search));
    if (!s) return PyErr_NoMemory();
    s->n = n;
    s->lone = lone;
    s->nwalk = (int)(PyBytes_GET_SIZE(walk_o) / 5);
    memcpy(s->walk, walk, (size_t)s->nwalk * 5);
    for (int c = 0; c < n; c++) {
        s->target[c] = target[c];
        s->nb[c][0] = nbs[2 * c];
        s->nb[c][1] = nbs[2 * c + 1];
        s->nadj[c] = 0;
        for (int j = 0; j < 4; j++)
            if (adj[4 * c + j] != 255) {
                s->adj[c][s->nadj[c]++] = adj[4 * c + j];
                s->adjmask[c] |= ONE(adj[4 * c + j]);
            }
        for (int d = 0; d < n; d++)
            if (allow[c * n + d]) s->allow[c] |= ONE(d);
        s->group[c] = group[c];
        s->cell_group[c] = cell_group[c];
    }
    s->weight = weight;
    s->alpha = alpha;
    s->beta = beta;
    s->gamma = gamma;
    s->eta = eta;
    s->charge_lone = charge_lone;
    s->charge_other = charge_other;
    s->tolerance = 0.5 * weight;
    s->exact = exact;
    s->lazy = lazy;
    s->focus = focus;
    s->sort_groups_only = sort_groups_only;
    s->count_wrong = gamma != 0.0 || sort_groups_only;
    s->size = (int)nregion;
    for (int r = 0; r < nregion; r++) {
        int c = region ? region[r] : r;
        s->region[r] = (uint8_t)c;
        s->inside[c] = 1;
    }
    s->restricted = region != NULL && nregion < n;
    for (int c = 0; c < n; c++) {
        s->counted[c] = s->inside[c] && c != lone;
        s->sadable[c] = s->inside[c] && c != lone;
    }
    /* _key_steps: weight * (dh + eta * lo), dh = -+alpha (+ beta * b) (+ gamma * c) */
    for (int merge = 0; merge < 2; merge++)
        for (int b = -2; b <= 2; b++)
            for (int c = -2; c <= 2; c++) {
                double dh = merge ? alpha : -alpha;
                if (beta != 0.0) dh += beta * b;
                if (gamma != 0.0) dh += gamma * c;
                for (int lo = -31; lo <= 0; lo++) s->steps[merge][b + 2][c + 2][-lo] = weight * (dh + eta * lo);
            }
    if (twister_o != Py_None) {
        if (twister_arg(twister_o, "search", &s->rng)) {
            search_free(s);
            return NULL;
        }
        s->seeded = 1;
    }
    int no_set = set_init(&s->set, n, (const int64_t *)hashes);
    s->seenmask = 1023;
    s->seen = malloc(1024 * sizeof(int32_t));
    if (no_set || !s->seen) {
        search_free(s);
        return PyErr_NoMemory();
    }
    for (int i = 0; i < 1024; i++) s->seen[i] = -1;

    /* the start node */
    Node first = {0.0, -1, -1, -1, 0, 0, position_hash(s, start)};
    int wrong0 = 0, out0 = 0;
    for (int r = 0; r < s->size; r++) {
        int c = s->region[r];
        if (s->count_wrong && off_group(s, c, start[c])) wrong0++;
        if (target[start[c]] != c) out0++;
    }
    first.wrong = (int16_t)wrong0;
    first.out = (int16_t)out0;
    Heap heap = {NULL, 0, 0};
    int failed = node_add(s, start, first) || Heap_push(&heap, (Entry){0.0, 0.0, 0, -1, -1, 0, EXACT, 0});

    static const double ties[3] = {0.0, -1.0, -2.0};
    long long expanded = 0;
    int best_near = n + 1, probed = 0, interrupted = 0;
    int32_t best_idx = 0, done_idx = -1;
    uint8_t child[MAXN];
    Lists L;
    static __thread Entry kids[MAX_SWAPS];

    PyThreadState *thread = PyEval_SaveThread();
    while (!failed && heap.len) {
        Entry e = Heap_pop(&heap);
        const Node pnode = s->nodes[e.parent];
        const uint8_t *pat = s->ats + (size_t)e.parent * n;
        int a = e.a, b = e.b;
        uint64_t h = pnode.hash;
        memcpy(child, pat, n);
        if (a >= 0) {
            int x = pat[a], y = pat[b];
            child[a] = (uint8_t)y;
            child[b] = (uint8_t)x;
            h ^= zobrist[a][x] ^ zobrist[b][y] ^ zobrist[a][y] ^ zobrist[b][x];
        }
        if (seen_find(s, child, h) >= 0) continue;
        int kind = e.kind;
        if (kind == LOWER) {
            /* pushed with a lower bound of its eta delta: put it back if the true delta is higher */
            uint8_t ppos[MAXN], psad[MAXN];
            for (int c = 0; c < n; c++) ppos[pat[c]] = (uint8_t)c;
            int x = pat[a], y = pat[b];
            int zs[6] = {a, b, ppos[s->nb[x][0]], ppos[s->nb[x][1]], ppos[s->nb[y][0]], ppos[s->nb[y][1]]};
            for (int i = 0; i < 6; i++) psad[zs[i]] = (uint8_t)unhappy_at(s, pat, ppos, zs[i]);
            int delta = eta_delta(s, pat, ppos, psad, a, b);
            double true_f = e.key + weight * eta * ((double)delta - (double)e.lo);
            if (true_f > e.key) {
                e.key = true_f;
                e.kind = EXACT;
                if (Heap_push(&heap, e)) failed = 1;
                continue;
            }
            kind = EXACT;
        }
        read_position(s, child, &L, 1);
        double g;
        int wrong = pnode.wrong, out = pnode.out;
        if (a >= 0) {
            int x = pat[a], y = pat[b];
            g = pnode.g + 1;
            if (s->count_wrong)
                wrong += off_group(s, a, y) + off_group(s, b, x) - off_group(s, a, x) - off_group(s, b, y);
            int ta = target[x], tb = target[y];
            out += (tb != a) + (ta != b) - (ta != a) - (tb != b);
            if (L.cyc[a] == L.cyc[b]) g += (lone == a || lone == b) ? charge_lone : charge_other;
        } else {
            g = 0.0;
        }
        int bound = s->size - L.k;
        int done = sort_groups_only ? wrong == 0 : bound == 0;
        double hv = alpha * bound + gamma * wrong;
        if (beta != 0.0) hv += beta * out;
        if (eta != 0.0) hv += eta * L.unhappy;
        double f = g + weight * hv;
        if (!done && kind == ESTIMATE && f > e.key + s->tolerance) {
            e.key = f;
            e.kind = EXACT;
            if (Heap_push(&heap, e)) failed = 1;
            continue;
        }
        int32_t idx = 0;
        if (a >= 0) {
            Node node = {g, e.parent, (int16_t)a, (int16_t)b, (int16_t)wrong, (int16_t)out, h};
            if (node_add(s, child, node)) {
                failed = 1;
                break;
            }
            idx = (int32_t)s->nnodes - 1;
        }
        if (seen_add(s, idx)) {
            failed = 1;
            break;
        }
        int nearness = sort_groups_only ? wrong : bound;
        if (nearness < best_near) {
            best_near = nearness;
            best_idx = idx;
        }
        if (done) {
            done_idx = idx;
            break;
        }
        if (expanded >= node_limit) break;
        if (expanded == probe_at && best_near > probe_near) {
            probed = 1;
            break;
        }
        expanded++;
        if (deadline >= 0 && (expanded & 7) == 0 && now() > deadline) break;
        if ((expanded & 4095) == 0) {
            PyEval_RestoreThread(thread);
            if (PyErr_CheckSignals() < 0) interrupted = 1;
            thread = PyEval_SaveThread();
            if (interrupted) break;
        }
        double base = g + 1 + weight * hv;
        double merge_key = base + charge_other;
        walk_moves(s, child, L.pos, L.welcome);
        const int32_t *keys = s->set.keys[s->set.cur];
        int rank = 0, nkids = 0;
        for (size_t slot = 0; slot <= s->set.mask; slot++) {
            if (keys[slot] < 0) continue;
            int p = keys[slot] / n, q = keys[slot] % n;
            if (s->restricted && !(s->inside[p] && s->inside[q])) continue;
            int this_rank = rank++;
            int x = child[p], y = child[q], tx = target[x], ty = target[y];
            if (s->focus && tx == p && ty == q) continue;
            int placed = (tx == q) + (ty == p);
            int bchange = (tx == p) + (ty == q) - placed;
            int same = L.cyc[p] == L.cyc[q];
            int cchange = 0, gdiff = s->group[x] != s->group[y];
            if (gdiff && gamma != 0.0)
                cchange = off_group(s, q, x) + off_group(s, p, y) - off_group(s, p, x) - off_group(s, q, y);
            Entry kid;
            kid.parent = idx;
            kid.rank = (uint16_t)this_rank;
            kid.a = (int16_t)p;
            kid.b = (int16_t)q;
            kid.lo = 0;
            if (lazy || !exact) {
                double key = same ? base : (lone < 0 ? merge_key
                                             : base + ((lone == p || lone == q) ? charge_lone : charge_other));
                int lo = -(L.sad[p] + L.sad[q]);
                if (lazy) {
                    mask_t sx = (ONE(L.pos[s->nb[x][0]]) | ONE(L.pos[s->nb[x][1]])) & L.sadm;
                    mask_t sy = (ONE(L.pos[s->nb[y][0]]) | ONE(L.pos[s->nb[y][1]])) & L.sadm;
                    if (sx || sy) {
                        mask_t ap = s->adjmask[p], aq = s->adjmask[q];
                        mask_t u = (aq & sx) | (ap & sy);
                        if (u) lo -= BIT(ap, q) ? popcount(u) : popcount(u) + popcount(u & ap & aq);
                    }
                    kid.kind = LOWER;
                    kid.lo = (int8_t)lo;
                } else {
                    kid.kind = eta == 0.0 ? EXACT : ESTIMATE;
                }
                key += s->steps[same ? 0 : 1][bchange + 2][cchange + 2][-lo];
                kid.key = key;
            } else {
                double dh, extra;
                if (same) {
                    dh = -alpha;
                    extra = 0.0;
                } else {
                    dh = alpha;
                    extra = (lone == p || lone == q) ? charge_lone : charge_other;
                }
                if (beta != 0.0) dh += beta * bchange;
                if (gamma != 0.0 && gdiff) dh += gamma * cchange;
                dh += eta * eta_delta(s, child, L.pos, L.sad, p, q);
                kid.key = base + extra + weight * dh;
                kid.kind = EXACT;
            }
            kid.tie = s->seeded ? (double)(-placed) + twister_random(&s->rng) : ties[placed];
            kids[nkids++] = kid;
        }
        for (int i = 0; i < nkids; i++)
            if (Heap_push(&heap, kids[i])) {
                failed = 1;
                break;
            }
    }
    PyEval_RestoreThread(thread);
    free(heap.e);
    if (interrupted) {
        search_free(s);
        return NULL;
    }
    if (failed) {
        search_free(s);
        return PyErr_NoMemory();
    }
    PyObject *result = NULL, *path = NULL, *end = NULL, *best = NULL;
    if (done_idx >= 0) {
        path = trace(s, done_idx);
        end = PyBytes_FromStringAndSize((const char *)s->ats + (size_t)done_idx * n, n);
    } else {
        path = Py_NewRef(Py_None);
        end = Py_NewRef(start_o);
    }
    PyObject *best_path = trace(s, best_idx);
    PyObject *best_at = PyBytes_FromStringAndSize((const char *)s->ats + (size_t)best_idx * n, n);
    if (path && end && best_path && best_at)
        best = Py_BuildValue("(OOiO)", best_path, best_at, best_near, probed ? Py_True : Py_False);
    if (best) result = Py_BuildValue("(OOLO)", path, end, expanded, best);
    Py_XDECREF(path);
    Py_XDECREF(end);
    Py_XDECREF(best_path);
    Py_XDECREF(best_at);
    Py_XDECREF(best);
    search_free(s);
    return result;
}


/* ---- Pattern of Amber's dock: a best-first search inside one block (amber_pattern's _dock_py) ---- */

#define MAXBLOCK 32

typedef struct {
    int f, g, h;
    int32_t tie, state;
} DockEntry;

static inline int dock_less(const DockEntry *x, const DockEntry *y) {
    if (x->f != y->f) return x->f < y->f;
    if (x->g != y->g) return x->g < y->g;
    return x->tie < y->tie;
}

DEFINE_HEAP(DockHeap, DockEntry, dock_less)

typedef struct {
    int m, nwanted;
    uint32_t movable, mask[MAXBLOCK];
    uint8_t adj[MAXBLOCK][4], nadj[MAXBLOCK], targets[MAXBLOCK][MAXBLOCK][5], dist[MAXBLOCK][MAXBLOCK];
    const uint8_t *nb;  /* the rank-neighbours of every card of the board, two bytes a card */
    int stay, wanted[MAXBLOCK];
    PairSet set;
    int16_t cell_of[256];  /* the local cell of every card in the block, -1 for the others */
    /* the states: m bytes each, each with its parent state and the swap from it */
    uint8_t *states;
    int32_t *parent;
    uint8_t (*swap)[2];
    uint64_t *hash;
    size_t nstates, cap;
    int32_t *seen;
    size_t seenmask;
    DockHeap heap;
    int64_t *pair_hash;  /* hash((i, k)) of every pair of cells, for the set */
    uint8_t nbs[512];    /* the rank-neighbours of every card (``nb`` points here) */
} Dock;

/* PatternPlanner._make_moves: the legal swaps inside the block holding ``cont``, into the set */
static void dock_moves(Dock *d, const uint8_t *cont) {
    int m = d->m;
    uint32_t near[MAXBLOCK];
    set_clear(&d->set);
    for (int i = 0; i < m; i++) d->cell_of[cont[i]] = (int16_t)i;
    for (int i = 0; i < m; i++) {
        int r = d->cell_of[d->nb[2 * cont[i]]], t = d->cell_of[d->nb[2 * cont[i] + 1]];
        near[i] = (r >= 0 ? 1U << r : 0U) | (t >= 0 ? 1U << t : 0U);
    }
    for (int i = 0; i < m; i++) {
        uint32_t ni = near[i];
        if (!ni || !(d->movable >> i & 1)) continue;
        uint32_t up = (d->movable >> (i + 1)) << (i + 1), touch = 0;
        for (uint32_t v = ni; v; v &= v - 1) touch |= d->mask[__builtin_ctz(v)];
        touch &= up;
        uint32_t legal = ni & d->mask[i] & up;
        if (touch) {
            uint32_t by = 0;
            for (int j = 0; j < d->nadj[i]; j++) by |= near[d->adj[i][j]];
            legal |= touch & by;
        }
        if (!legal) continue;
        if (!(legal & (legal - 1))) {
            set_add(&d->set, i, 31 - __builtin_clz(legal));
            continue;
        }
        for (int side = 0; side < 2; side++) {
            int j = d->cell_of[d->nb[2 * cont[i] + side]];
            if (j < 0) continue;
            for (int t = 0; t < 5 && d->targets[i][j][t] != 255; t++) {
                int k = d->targets[i][j][t];
                if (legal >> k & 1) set_add(&d->set, i, k);
            }
        }
    }
    for (int i = 0; i < m; i++) d->cell_of[cont[i]] = -1;
}

/* the dock's h: the grid distance from ``stay`` to the nearest wanted card, minus one */
static int dock_h(const Dock *d, const uint8_t *c) {
    int at_stay = 0, best = 99;
    while (c[at_stay] != d->stay) at_stay++;
    for (int w = 0; w < d->nwanted; w++) {
        int at = 0;
        while (c[at] != d->wanted[w]) at++;
        if (d->dist[at_stay][at] < best) best = d->dist[at_stay][at];
    }
    return best - 1;
}

/* a block's content hashed eight bytes at a time (multiply and fold) */
static uint64_t dock_hash(const uint8_t *c, int m) {
    uint64_t h = 0x9e3779b97f4a7c15ULL ^ (uint64_t)m, w;
    int i = 0;
    for (; i + 8 <= m; i += 8) {
        memcpy(&w, c + i, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, c + i, (size_t)(m - i));
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

/* the number of state ``c`` (its hash ``h``) in the dock's table, or -1 with ``*slot`` where it would go */
static int32_t dock_lookup(const Dock *d, const uint8_t *c, uint64_t h, size_t *slot) {
    int m = d->m;
    size_t at = (size_t)h & d->seenmask;
    for (;;) {
        int32_t j = d->seen[at];
        if (j < 0) break;
        if (d->hash[j] == h && memcmp(d->states + (size_t)j * m, c, m) == 0) return j;
        at = (at + 1) & d->seenmask;
    }
    *slot = at;
    return -1;
}

/* state ``c`` (hash ``h``, not in the table; ``slot`` from dock_lookup) added with its parent and swap: its number,
 * or -2 when out of memory */
static int32_t dock_insert(Dock *d, const uint8_t *c, uint64_t h, size_t slot, int32_t parent, int i, int k) {
    int m = d->m;
    if (d->nstates == d->cap) {
        size_t cap = d->cap * 2;
        uint8_t *states = realloc(d->states, cap * m);
        int32_t *parent_ = realloc(d->parent, cap * sizeof(int32_t));
        uint8_t(*swap)[2] = realloc(d->swap, cap * 2);
        uint64_t *hash = realloc(d->hash, cap * sizeof(uint64_t));
        if (states) d->states = states;
        if (parent_) d->parent = parent_;
        if (swap) d->swap = swap;
        if (hash) d->hash = hash;
        if (!states || !parent_ || !swap || !hash) return -2;
        d->cap = cap;
    }
    int32_t idx = (int32_t)d->nstates++;
    memcpy(d->states + (size_t)idx * m, c, m);
    d->parent[idx] = parent;
    d->swap[idx][0] = (uint8_t)i;
    d->swap[idx][1] = (uint8_t)k;
    d->hash[idx] = h;
    d->seen[slot] = idx;
    if (d->nstates * 2 > d->seenmask + 1) {
        size_t size = (d->seenmask + 1) * 2;
        int32_t *t = malloc(size * sizeof(int32_t));
        if (!t) return -2;
        for (size_t q = 0; q < size; q++) t[q] = -1;
        for (size_t q = 0; q < d->nstates; q++) {
            size_t r = (size_t)d->hash[q] & (size - 1);
            while (t[r] >= 0) r = (r + 1) & (size - 1);
            t[r] = (int32_t)q;
        }
        free(d->seen);
        d->seen = t;
        d->seenmask = size - 1;
    }
    return idx;
}

/* the state ``c`` added (parent, swap), or -1 if it was seen; -2 when out of memory */
static int32_t dock_add(Dock *d, const uint8_t *c, int32_t parent, int i, int k) {
    uint64_t h = dock_hash(c, d->m);
    size_t slot;
    if (dock_lookup(d, c, h, &slot) >= 0) return -1;
    return dock_insert(d, c, h, slot, parent, i, k);
}

static void dock_free(Dock *d) {
    if (!d) return;
    set_free(&d->set);
    free(d->states);
    free(d->parent);
    free(d->swap);
    free(d->hash);
    free(d->seen);
    free(d->heap.e);
    free(d->pair_hash);
    free(d);
}

/* a dock's geometry, from an entry of PatternPlanner._core_blocks and the cards' rank-neighbours (512 bytes,
 * copied), with room for its searches; NULL with an exception set */
static Dock *dock_new(PyObject *block, const uint8_t *nbs) {
    int m;
    unsigned int movable;
    PyObject *adj_o, *targets_o, *dist_o, *hash_o;
    if (!PyTuple_Check(block)) {
        PyErr_SetString(PyExc_TypeError, "_amber_core: a block must be an entry of PatternPlanner._core_blocks");
        return NULL;
    }
    if (!PyArg_ParseTuple(block, "iISSSS", &m, &movable, &adj_o, &targets_o, &dist_o, &hash_o)) return NULL;
    if (m < 2 || m > MAXBLOCK) {
        PyErr_Format(PyExc_ValueError, "_amber_core: a block of %d cells (2 to %d)", m, MAXBLOCK);
        return NULL;
    }
    const uint8_t *adj, *targets, *dist, *hashes;
    if (bytes_arg(adj_o, "adj", 4 * m, &adj) || bytes_arg(targets_o, "targets", 5 * m * m, &targets) ||
        bytes_arg(dist_o, "dist", m * m, &dist) || bytes_arg(hash_o, "hashes", 8 * m * m, &hashes))
        return NULL;
    Dock *d = calloc(1, sizeof(Dock));
    if (!d) return (Dock *)PyErr_NoMemory();
    d->m = m;
    d->movable = movable;
    memcpy(d->nbs, nbs, sizeof d->nbs);
    d->nb = d->nbs;
    for (int i = 0; i < 256; i++) d->cell_of[i] = -1;
    for (int i = 0; i < m; i++) {
        for (int j = 0; j < 4; j++)
            if (adj[4 * i + j] != 255) {
                d->adj[i][d->nadj[i]++] = adj[4 * i + j];
                d->mask[i] |= 1U << adj[4 * i + j];
            }
        for (int j = 0; j < m; j++) {
            memcpy(d->targets[i][j], targets + 5 * (i * m + j), 5);
            d->dist[i][j] = dist[i * m + j];
        }
    }
    d->cap = 256;
    d->seenmask = 1023;
    d->pair_hash = malloc((size_t)8 * m * m);
    d->states = malloc(d->cap * m);
    d->parent = malloc(d->cap * sizeof(int32_t));
    d->swap = malloc(d->cap * 2);
    d->hash = malloc(d->cap * sizeof(uint64_t));
    d->seen = malloc((d->seenmask + 1) * sizeof(int32_t));
    if (!d->pair_hash || set_init(&d->set, m, d->pair_hash) || !d->states || !d->parent || !d->swap || !d->hash ||
        !d->seen) {
        dock_free(d);
        return (Dock *)PyErr_NoMemory();
    }
    memcpy(d->pair_hash, hashes, (size_t)8 * m * m);
    return d;
}

/* the dock's states of its last search dropped (a table grown by a long search made small again: the next
 * search clears it whole) */
static void dock_clear(Dock *d) {
    d->nstates = 0;
    if (d->seenmask > 1023) {
        int32_t *seen = realloc(d->seen, 1024 * sizeof(int32_t));
        if (seen) {
            d->seen = seen;
            d->seenmask = 1023;
        }
    }
    for (size_t q = 0; q <= d->seenmask; q++) d->seen[q] = -1;
}

/* the cells touching the cells of ``s`` */
static inline uint32_t dock_spread(const Dock *d, uint32_t s) {
    uint32_t out = 0;
    for (; s; s &= s - 1) out |= d->mask[__builtin_ctz(s)];
    return out;
}

/* PatternPlanner._never_docks (with reach_masks): whether no cell a wanted card may reach touches one that ``stay``
 * may reach, the block holding ``cont`` (every card of ``stay`` and ``wanted`` in it) */
static int dock_never(Dock *d, const uint8_t *cont, int stay, const uint8_t *wanted, int nwanted) {
    int m = d->m, nmovers = 0, movers[MAXBLOCK], nnear[MAXBLOCK];
    uint8_t near[MAXBLOCK][2];
    uint32_t reach[MAXBLOCK], free_cells = 0;
    for (int i = 0; i < m; i++) d->cell_of[cont[i]] = (int16_t)i;
    for (int i = 0; i < m; i++) {
        nnear[i] = 0;
        for (int side = 0; side < 2; side++) {
            int j = d->cell_of[d->nb[2 * cont[i] + side]];
            if (j >= 0) near[i][nnear[i]++] = (uint8_t)j;
        }
        if (nnear[i] && (d->movable >> i & 1)) {
            free_cells |= 1U << i;
            movers[nmovers++] = i;
        }
        reach[i] = 1U << i;
    }
    for (int changed = 1; changed;) {
        changed = 0;
        for (int v = 0; v < nmovers; v++) {
            int i = movers[v];
            uint32_t mine = reach[i], beside = dock_spread(d, mine), acc = 0;
            for (int j = 0; j < nnear[i]; j++) {
                uint32_t theirs = reach[near[i][j]];
                acc |= dock_spread(d, theirs) | (theirs & beside);
            }
            uint32_t grown = mine | (acc & free_cells);
            if (grown != mine) {
                reach[i] = grown;
                changed = 1;
            }
        }
    }
    uint32_t beside = dock_spread(d, reach[d->cell_of[stay]]);
    int never = 1;
    for (int w = 0; w < nwanted && never; w++)
        if (reach[d->cell_of[wanted[w]]] & beside) never = 0;
    for (int i = 0; i < m; i++) d->cell_of[cont[i]] = -1;
    return never;
}

/* _dock_py's best-first search from ``cont``, in the dock's room (the states of its last search dropped). At its
 * ``proof_after``-th state it asks dock_never (_never_docks) and stops with 2 when no dock exists. Else 0,
 * ``*found`` the state docked or -1; -1 when out of memory. */
static int dock_search(Dock *d, const uint8_t *cont, int stay, const uint8_t *wanted, int nwanted, int cap,
                       int proof_after, int32_t *found) {
    int m = d->m;
    d->stay = stay;
    d->nwanted = nwanted;
    for (int w = 0; w < nwanted; w++) d->wanted[w] = wanted[w];
    dock_clear(d);
    DockHeap *heap = &d->heap;
    heap->len = 0;
    uint8_t looked[256] = {0};
    looked[stay] = 1;
    for (int w = 0; w < nwanted; w++) looked[wanted[w]] = 1;
    *found = -1;
    int h0 = dock_h(d, cont);
    if (dock_add(d, cont, -1, 255, 255) < 0 || DockHeap_push(heap, (DockEntry){h0, 0, h0, 0, 0})) return -1;
    int32_t tie = 0;
    int expanded = 0;
    uint8_t t[MAXBLOCK];
    while (heap->len) {
        DockEntry e = DockHeap_pop(heap);
        if (e.h == 0) {
            *found = e.state;
            return 0;
        }
        expanded++;
        if (expanded > cap) return 0;
        if (expanded == proof_after && dock_never(d, cont, stay, wanted, nwanted)) return 2;
        int g1 = e.g + 1;
        int back_i = d->swap[e.state][0], back_k = d->swap[e.state][1];
        memcpy(t, d->states + (size_t)e.state * m, m);
        dock_moves(d, t);
        const int32_t *keys = d->set.keys[d->set.cur];
        for (size_t slot = 0; slot <= d->set.mask; slot++) {
            if (keys[slot] < 0) continue;
            int i = keys[slot] / m, k = keys[slot] % m;
            if (i == back_i && k == back_k) continue;
            int x = t[k], y = t[i];
            t[i] = (uint8_t)x;
            t[k] = (uint8_t)y;
            int32_t idx = dock_add(d, t, e.state, i, k);
            t[i] = (uint8_t)y;
            t[k] = (uint8_t)x;
            if (idx == -1) continue;
            if (idx < 0) return -1;
            tie++;
            int hn = (looked[x] || looked[y]) ? dock_h(d, d->states + (size_t)idx * m) : e.h;
            if (DockHeap_push(heap, (DockEntry){g1 + 2 * hn, g1, hn, tie, idx})) return -1;
        }
    }
    return 0;
}

/* the swaps (local cell pairs, a tuple) from the first state to ``found``, or None for -1 */
static PyObject *dock_swaps(const Dock *d, int32_t found) {
    if (found < 0) return Py_NewRef(Py_None);
    Py_ssize_t len = 0;
    for (int32_t j = found; d->parent[j] >= 0; j = d->parent[j]) len++;
    PyObject *swaps = PyTuple_New(len);
    for (int32_t j = found; swaps && d->parent[j] >= 0; j = d->parent[j]) {
        PyObject *pair = Py_BuildValue("(ii)", d->swap[j][0], d->swap[j][1]);
        if (!pair) {
            Py_CLEAR(swaps);
            break;
        }
        PyTuple_SET_ITEM(swaps, --len, pair);
    }
    return swaps;
}

/* ---- Pattern of Amber's docks with their cache, and the exchange (PatternPlanner.dock, dock_exchange) ---- */

#define EXBLOCKS 8

/* the blocks of a board: each one's dock (geometry and room), its cells, and the block of every cell */
typedef struct {
    int nblocks, ncells;
    uint8_t cells[EXBLOCKS][MAXBLOCK];
    uint8_t block_of[256];
    Dock *dock[EXBLOCKS];
    uint8_t (*swaps)[2];  /* the last exchange's swaps (board cells), ``nswaps`` of them */
    size_t nswaps, capswaps;
} Exchanger;

static void exchanger_free(PyObject *capsule) {
    Exchanger *ex = PyCapsule_GetPointer(capsule, "amber_core.exchanger");
    if (!ex) return;
    for (int b = 0; b < ex->nblocks; b++) dock_free(ex->dock[b]);
    free(ex->swaps);
    free(ex);
}

PyDoc_STRVAR(exchanger_doc,
"exchanger(blocks, nb, cells) -> capsule\n\n"
"The blocks of a Pattern board for never_docks, cached_dock and exchange: blocks is PatternPlanner._core_blocks,\n"
"nb its _core_nb, cells the board cells of every block (bytes, in the block's order).");

static PyObject *exchanger(PyObject *self, PyObject *args) {
    PyObject *blocks, *nb_o, *cells_o;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!SO!", &PyList_Type, &blocks, &nb_o, &PyList_Type, &cells_o)) return NULL;
    const uint8_t *nbs;
    if (bytes_arg(nb_o, "nb", 512, &nbs)) return NULL;
    Py_ssize_t nblocks = PyList_GET_SIZE(blocks);
    if (nblocks < 1 || nblocks > EXBLOCKS || PyList_GET_SIZE(cells_o) != nblocks) {
        PyErr_Format(PyExc_ValueError, "_amber_core.exchanger: 1 to %d blocks, and the cells of each", EXBLOCKS);
        return NULL;
    }
    Exchanger *ex = calloc(1, sizeof(Exchanger));
    if (!ex) return PyErr_NoMemory();
    memset(ex->block_of, 255, sizeof ex->block_of);
    PyObject *capsule = PyCapsule_New(ex, "amber_core.exchanger", exchanger_free);
    if (!capsule) {
        free(ex);
        return NULL;
    }
    for (Py_ssize_t b = 0; b < nblocks; b++) {
        Dock *d = dock_new(PyList_GET_ITEM(blocks, b), nbs);
        if (!d) goto fail;
        ex->dock[b] = d;
        ex->nblocks = (int)b + 1;
        const uint8_t *cells;
        if (bytes_arg(PyList_GET_ITEM(cells_o, b), "cells", d->m, &cells)) goto fail;
        for (int i = 0; i < d->m; i++) {
            if (ex->block_of[cells[i]] != 255) {
                PyErr_Format(PyExc_ValueError, "_amber_core.exchanger: cell %d is in two blocks", cells[i]);
                goto fail;
            }
            ex->cells[b][i] = cells[i];
            ex->block_of[cells[i]] = (uint8_t)b;
            ex->ncells++;
        }
    }
    return capsule;
fail:
    Py_DECREF(capsule);
    return NULL;
}

static Exchanger *exchanger_arg(PyObject *o) {
    return PyCapsule_GetPointer(o, "amber_core.exchanger");
}

static inline int holds(const uint8_t *cont, int m, int x) {
    for (int i = 0; i < m; i++)
        if (cont[i] == x) return 1;
    return 0;
}

/* amber_pattern.dock_key: the key of PatternPlanner.dock's cache, the bytes of blk, stay, the number of wanted
 * cards, the wanted cards and the content (the block's cards, or its inert_key); a new reference */
static PyObject *dock_key(int blk, const uint8_t *content, int m, int stay, const uint8_t *wanted, int nwanted) {
    uint8_t key[3 + 2 * MAXBLOCK];
    key[0] = (uint8_t)blk;
    key[1] = (uint8_t)stay;
    key[2] = (uint8_t)nwanted;
    memcpy(key + 3, wanted, nwanted);
    memcpy(key + 3 + nwanted, content, m);
    return PyBytes_FromStringAndSize((const char *)key, 3 + nwanted + m);
}

/* whether a cached answer (swaps or None, cap) answers a dock of ``cap`` states: found, or failed within as many;
 * -1 with an exception set */
static int dock_known(PyObject *known, int cap) {
    if (!PyTuple_Check(known) || PyTuple_GET_SIZE(known) != 2) {
        PyErr_SetString(PyExc_ValueError, "_amber_core: a dock cache entry must be (swaps or None, cap)");
        return -1;
    }
    if (PyTuple_GET_ITEM(known, 0) != Py_None) return 1;
    long was = PyLong_AsLong(PyTuple_GET_ITEM(known, 1));
    if (was == -1 && PyErr_Occurred()) return -1;
    return was >= cap;
}

/* PatternPlanner._may_dock: ``stay`` may move, or a movable card beside it and a wanted card may */
static int may_dock(Dock *d, const uint8_t *cont, int stay, const uint8_t *wanted, int nwanted) {
    int m = d->m, linked[MAXBLOCK], a = 0, yes = 0;
    for (int i = 0; i < m; i++) d->cell_of[cont[i]] = (int16_t)i;
    for (int i = 0; i < m; i++)
        linked[i] = d->cell_of[d->nb[2 * cont[i]]] >= 0 || d->cell_of[d->nb[2 * cont[i] + 1]] >= 0;
    a = d->cell_of[stay];
    if (linked[a]) {
        yes = 1;
    } else {
        for (int j = 0; j < d->nadj[a] && !yes; j++) {
            int c = d->adj[a][j];
            if (linked[c] && (d->movable >> c & 1)) yes = 1;
        }
        if (yes) {
            yes = 0;
            for (int w = 0; w < nwanted && !yes; w++)
                if (linked[d->cell_of[wanted[w]]]) yes = 1;
        }
    }
    for (int i = 0; i < m; i++) d->cell_of[cont[i]] = -1;
    return yes;
}

/* PatternPlanner.dock with its cache (``docks``, cleared when it holds more than ``clear_above`` entries): the swaps
 * inside block ``blk`` (holding ``cont``) after which ``stay`` touches one of ``wanted``; a new reference to a
 * tuple of local pairs or to None; NULL with an exception set */
static PyObject *ex_dock(Exchanger *ex, PyObject *docks, int blk, const uint8_t *cont, int stay,
                         const uint8_t *wanted_in, int nin, int cap, int proof_after, Py_ssize_t clear_above) {
    Dock *d = ex->dock[blk];
    int m = d->m, nwanted = 0;
    uint8_t wanted[MAXBLOCK], inert[MAXBLOCK];
    for (int w = 0; w < nin && nwanted < MAXBLOCK; w++)
        if (holds(cont, m, wanted_in[w])) wanted[nwanted++] = wanted_in[w];
    if (!nwanted || !holds(cont, m, stay)) return Py_NewRef(Py_None);
    PyObject *key = NULL, *ikey = NULL, *value = NULL, *result = NULL;
    if (!(key = dock_key(blk, cont, m, stay, wanted, nwanted))) goto done;
    PyObject *known = PyDict_GetItemWithError(docks, key);
    if (known) {
        int ok = dock_known(known, cap);
        if (ok < 0) goto done;
        if (ok) {
            result = Py_NewRef(PyTuple_GET_ITEM(known, 0));
            goto done;
        }
    } else if (PyErr_Occurred()) {
        goto done;
    }
    for (int i = 0; i < m; i++) {
        int x = cont[i];
        inert[i] = (x == stay || holds(wanted, nwanted, x) || holds(cont, m, d->nb[2 * x]) ||
                    holds(cont, m, d->nb[2 * x + 1])) ? (uint8_t)x : 255;
    }
    if (!(ikey = dock_key(blk, inert, m, stay, wanted, nwanted))) goto done;
    known = PyDict_GetItemWithError(docks, ikey);
    if (known) {
        int ok = dock_known(known, cap);
        if (ok < 0) goto done;
        if (ok) {
            if (PyDict_SetItem(docks, key, known) == 0) result = Py_NewRef(PyTuple_GET_ITEM(known, 0));
            goto done;
        }
    } else if (PyErr_Occurred()) {
        goto done;
    }
    d->stay = stay;
    d->nwanted = nwanted;
    for (int w = 0; w < nwanted; w++) d->wanted[w] = wanted[w];
    PyObject *swaps;
    int never = dock_h(d, cont) > 0 && !may_dock(d, cont, stay, wanted, nwanted);
    if (!never) {
        int32_t found;
        int status = dock_search(d, cont, stay, wanted, nwanted, cap, proof_after, &found);
        if (status < 0) {
            PyErr_NoMemory();
            goto done;
        }
        never = status == 2;
        if (!never && PyDict_Size(docks) > clear_above) PyDict_Clear(docks);
        swaps = never ? NULL : dock_swaps(d, found);
        if (!never && !swaps) goto done;
        if (!never) value = Py_BuildValue("(Ni)", swaps, cap);
    }
    if (never) value = Py_BuildValue("(Oi)", Py_None, 1 << 30);
    if (!value || PyDict_SetItem(docks, key, value) || PyDict_SetItem(docks, ikey, value)) goto done;
    result = Py_NewRef(PyTuple_GET_ITEM(value, 0));
done:
    Py_XDECREF(key);
    Py_XDECREF(ikey);
    Py_XDECREF(value);
    return result;
}

static int block_arg(const Exchanger *ex, int blk) {
    if (blk < 0 || blk >= ex->nblocks) {
        PyErr_Format(PyExc_ValueError, "_amber_core: no block %d (the board has %d)", blk, ex->nblocks);
        return -1;
    }
    return 0;
}

PyDoc_STRVAR(never_docks_doc,
"never_docks(exchanger, blk, cont, stay, wanted) -> bool\n\n"
"amber_pattern's PatternPlanner._never_docks, compiled (reach_masks): whether no swaps inside block blk (holding\n"
"the cards of bytes cont) bring card stay beside one of the cards of bytes wanted (stay and wanted in cont).");

static PyObject *never_docks(PyObject *self, PyObject *args) {
    PyObject *ex_o, *cont_o, *wanted_o;
    int blk, stay;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiSiS", &ex_o, &blk, &cont_o, &stay, &wanted_o)) return NULL;
    Exchanger *ex = exchanger_arg(ex_o);
    if (!ex || block_arg(ex, blk)) return NULL;
    Dock *d = ex->dock[blk];
    const uint8_t *cont, *wanted;
    Py_ssize_t nwanted = PyBytes_GET_SIZE(wanted_o);
    if (bytes_arg(cont_o, "cont", d->m, &cont) || bytes_arg(wanted_o, "wanted", -1, &wanted)) return NULL;
    if (!holds(cont, d->m, stay)) {
        PyErr_Format(PyExc_ValueError, "_amber_core.never_docks: card %d is not in the block", stay);
        return NULL;
    }
    for (Py_ssize_t w = 0; w < nwanted; w++)
        if (!holds(cont, d->m, wanted[w])) {
            PyErr_Format(PyExc_ValueError, "_amber_core.never_docks: wanted card %d is not in the block", wanted[w]);
            return NULL;
        }
    return PyBool_FromLong(dock_never(d, cont, stay, wanted, (int)nwanted));
}

PyDoc_STRVAR(cached_dock_doc,
"cached_dock(exchanger, docks, blk, cont, stay, wanted, cap, proof_after, clear_above) -> swaps or None\n\n"
"amber_pattern's PatternPlanner.dock, compiled, with its cache docks (the planner's dict, read and written as\n"
"the Python method does): cont and wanted as bytes.");

static PyObject *cached_dock(PyObject *self, PyObject *args) {
    PyObject *ex_o, *docks, *cont_o, *wanted_o;
    int blk, stay, cap, proof_after;
    Py_ssize_t clear_above;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!iSiSiin", &ex_o, &PyDict_Type, &docks, &blk, &cont_o, &stay, &wanted_o, &cap,
                          &proof_after, &clear_above))
        return NULL;
    Exchanger *ex = exchanger_arg(ex_o);
    if (!ex || block_arg(ex, blk)) return NULL;
    const uint8_t *cont, *wanted;
    if (bytes_arg(cont_o, "cont", ex->dock[blk]->m, &cont) || bytes_arg(wanted_o, "wanted", -1, &wanted)) return NULL;
    return ex_dock(ex, docks, blk, cont, stay, wanted, (int)PyBytes_GET_SIZE(wanted_o), cap, proof_after,
                   clear_above);
}

/* the swap of board cells ``cp`` and ``cq`` added to the exchanger's swaps; -1 with an exception set */
static int ex_push(Exchanger *ex, int cp, int cq) {
    if (ex->nswaps == ex->capswaps) {
        size_t cap = ex->capswaps ? ex->capswaps * 2 : 64;
        uint8_t(*swaps)[2] = realloc(ex->swaps, cap * 2);
        if (!swaps) {
            PyErr_NoMemory();
            return -1;
        }
        ex->swaps = swaps;
        ex->capswaps = cap;
    }
    ex->swaps[ex->nswaps][0] = (uint8_t)cp;
    ex->swaps[ex->nswaps][1] = (uint8_t)cq;
    ex->nswaps++;
    return 0;
}

/* the local swaps of a dock of block ``blk`` (a tuple of pairs of its cells) added to the exchanger's swaps as board
 * cells, each made on ``end``; -1 with an exception set (a pair that is not two cells of the block) */
static int add_dock_swaps(Exchanger *ex, int blk, PyObject *local, uint8_t *end) {
    int m = ex->dock[blk]->m;
    for (Py_ssize_t s = 0; s < PyTuple_GET_SIZE(local); s++) {
        PyObject *pair = PyTuple_GET_ITEM(local, s);
        long p = -1, q = -1;
        if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
            p = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            q = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        }
        if (p < 0 || q < 0 || p >= m || q >= m) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_amber_core: a dock's swap must be two cells of its block");
            return -1;
        }
        int cp = ex->cells[blk][p], cq = ex->cells[blk][q];
        uint8_t x = end[cp];
        end[cp] = end[cq];
        end[cq] = x;
        if (ex_push(ex, cp, cq)) return -1;
    }
    return 0;
}

/* dock_exchange: 1 when both sides dock, with the swaps (board cells, the exchange itself last) in the exchanger's
 * ``swaps`` and the position after them in ``end``; 0 when a side does not dock; -1 with an exception set */
static int ex_exchange(Exchanger *ex, PyObject *docks, const uint8_t *at, int f, int g, int cap, int proof_after,
                       Py_ssize_t clear_above, uint8_t *end) {
    int n = ex->ncells, cf = -1, cg = -1;
    for (int c = 0; c < n; c++) {
        if (at[c] == f) cf = c;
        if (at[c] == g) cg = c;
    }
    if (cf < 0 || cg < 0 || f == g) {
        PyErr_Format(PyExc_ValueError, "_amber_core.exchange: cards %d and %d must be two cards of the position", f, g);
        return -1;
    }
    int a = ex->block_of[cf], b = ex->block_of[cg];
    Dock *da = ex->dock[a], *db = ex->dock[b];
    const uint8_t *nb = da->nb;
    uint8_t cont_a[MAXBLOCK], cont_b[MAXBLOCK], wanted_a[2], wanted_b[2], kept[2];
    int na = 0, nb_ = 0, present = 0;
    for (int i = 0; i < da->m; i++) cont_a[i] = at[ex->cells[a][i]];
    for (int i = 0; i < db->m; i++) cont_b[i] = at[ex->cells[b][i]];
    for (int side = 0; side < 2; side++) {
        if (nb[2 * f + side] != g) wanted_b[nb_++] = nb[2 * f + side];
        if (nb[2 * g + side] != f) wanted_a[na++] = nb[2 * g + side];
    }
    /* known_to_fail: g's side known not to dock, without docking f's */
    for (int w = 0; w < nb_; w++)
        if (holds(cont_b, db->m, wanted_b[w])) kept[present++] = wanted_b[w];
    if (!present || !holds(cont_b, db->m, g)) return 0;
    PyObject *key = dock_key(b, cont_b, db->m, g, kept, present);
    int fails = -1;
    if (key) {
        PyObject *known = PyDict_GetItemWithError(docks, key);
        if (known) {
            int ok = dock_known(known, cap);  /* found, or failed within cap states */
            fails = ok < 0 ? -1 : ok && PyTuple_GET_ITEM(known, 0) == Py_None;
        } else {
            fails = PyErr_Occurred() ? -1 : 0;
        }
    }
    Py_XDECREF(key);
    if (fails) return fails < 0 ? -1 : 0;
    PyObject *prep_a = ex_dock(ex, docks, a, cont_a, f, wanted_a, na, cap, proof_after, clear_above);
    if (prep_a == NULL || prep_a == Py_None) {
        Py_XDECREF(prep_a);
        return prep_a ? 0 : -1;
    }
    PyObject *prep_b = ex_dock(ex, docks, b, cont_b, g, wanted_b, nb_, cap, proof_after, clear_above);
    if (prep_b == NULL || prep_b == Py_None) {
        Py_DECREF(prep_a);
        Py_XDECREF(prep_b);
        return prep_b ? 0 : -1;
    }
    memcpy(end, at, n);
    ex->nswaps = 0;
    int failed = add_dock_swaps(ex, a, prep_a, end) || add_dock_swaps(ex, b, prep_b, end);
    Py_DECREF(prep_a);
    Py_DECREF(prep_b);
    if (failed) return -1;
    for (int c = 0; c < n; c++) {
        if (end[c] == f) cf = c;
        if (end[c] == g) cg = c;
    }
    end[cf] = (uint8_t)g;
    end[cg] = (uint8_t)f;
    return ex_push(ex, cf, cg) ? -1 : 1;
}

PyDoc_STRVAR(exchange_doc,
"exchange(exchanger, docks, at, f, g, cap, proof_after, clear_above) -> (swaps, end) or None\n\n"
"amber_pattern's dock_exchange, compiled: the docks of both sides (cached_dock) and the swap of cards f and g,\n"
"as board cell pairs, and the position after them; None when a side does not dock.");

static PyObject *exchange(PyObject *self, PyObject *args) {
    PyObject *ex_o, *docks, *at_o;
    int f, g, cap, proof_after;
    Py_ssize_t clear_above;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!Siiiin", &ex_o, &PyDict_Type, &docks, &at_o, &f, &g, &cap, &proof_after,
                          &clear_above))
        return NULL;
    Exchanger *ex = exchanger_arg(ex_o);
    if (!ex) return NULL;
    const uint8_t *at;
    if (bytes_arg(at_o, "at", ex->ncells, &at)) return NULL;
    uint8_t end[256];
    int done = ex_exchange(ex, docks, at, f, g, cap, proof_after, clear_above, end);
    if (done <= 0) {
        if (done < 0) return NULL;
        Py_RETURN_NONE;
    }
    PyObject *swaps = PyTuple_New((Py_ssize_t)ex->nswaps), *result = NULL;
    for (size_t s = 0; swaps && s < ex->nswaps; s++) {
        PyObject *cells = Py_BuildValue("(ii)", ex->swaps[s][0], ex->swaps[s][1]);
        if (!cells) {
            Py_CLEAR(swaps);
            break;
        }
        PyTuple_SET_ITEM(swaps, (Py_ssize_t)s, cells);
    }
    if (swaps) result = Py_BuildValue("(Oy#)", swaps, (const char *)end, (Py_ssize_t)ex->ncells);
    Py_XDECREF(swaps);
    return result;
}

/* ---- Pattern of Amber's dock counting merges (PatternPlanner._merge_search_py) ---- */

typedef struct {
    int f, merges, g;
    int32_t tie, state;
    int8_t h, x;
} MergeEntry;

static inline int merge_less(const MergeEntry *p, const MergeEntry *q) {
    if (p->f != q->f) return p->f < q->f;
    if (p->merges != q->merges) return p->merges < q->merges;
    if (p->g != q->g) return p->g < q->g;
    return p->tie < q->tie;
}

DEFINE_HEAP(MergeHeap, MergeEntry, merge_less)

/* the state ``c`` of the dock's table: its number, added (with parent swap i, k) when new (*added 1); -2 when out
 * of memory */
static int32_t dock_find_or_add(Dock *d, const uint8_t *c, int i, int k, int *added) {
    uint64_t h = dock_hash(c, d->m);
    size_t slot;
    int32_t j = dock_lookup(d, c, h, &slot);
    *added = j < 0;
    return j >= 0 ? j : dock_insert(d, c, h, slot, -1, i, k);
}

/* cycle_ids of _merge_cycles: the cycle of every cell of ``c`` (and of the partner's, at m, when fixed_exit >= 0) */
static void merge_cycles(int m, const uint8_t *c, const uint8_t *exits, int fixed_exit, int *ids) {
    int nxt[MAXBLOCK + 1], len = m + (fixed_exit >= 0);
    for (int i = 0; i < m; i++) nxt[i] = exits[c[i]];
    if (fixed_exit >= 0) nxt[m] = fixed_exit;
    for (int i = 0; i < len; i++) ids[i] = -1;
    for (int i = 0, k = 0; i < len; i++) {
        if (ids[i] >= 0) continue;
        for (int j = i; ids[j] < 0; j = nxt[j]) ids[j] = k;
        k++;
    }
}

/* the cost (merges, swaps) of every state of the table and whether it was expanded, grown with the table */
typedef struct {
    int32_t *merges, *g;
    uint8_t *done;
    size_t room;
} MergeCosts;

static int merge_room(MergeCosts *c, size_t want) {
    int32_t *merges = realloc(c->merges, want * sizeof(int32_t));
    if (!merges) return -1;
    c->merges = merges;
    int32_t *g = realloc(c->g, want * sizeof(int32_t));
    if (!g) return -1;
    c->g = g;
    uint8_t *done = realloc(c->done, want);
    if (!done) return -1;
    c->done = done;
    if (c->room == 0) {  /* the first state: no swap yet */
        c->merges[0] = c->g[0] = 0;
        c->done[0] = 0;
    }
    c->room = want;
    return 0;
}

static int merge_closing(const Dock *d, const uint8_t *c, const uint8_t *exits, int fixed_exit) {
    if (fixed_exit < 0) return 0;
    int ids[MAXBLOCK + 1], s = 0;
    merge_cycles(d->m, c, exits, fixed_exit, ids);
    while (c[s] != d->stay) s++;
    return ids[s] != ids[d->m];
}

PyDoc_STRVAR(merge_dock_doc,
"merge_dock(exchanger, blk, cont, stay, wanted, exits, fixed_exit, cap, weight) -> (status, (swaps, merges) or None)\n\n"
"amber_pattern's PatternPlanner._merge_search_py, compiled: exits is cycle_exits of every card (255 for -1),\n"
"fixed_exit the partner's (-1 for none); status -1 when no dock exists (None), else 0 with the dock of fewest\n"
"weighted merges and swaps found within cap states, or None.");

static PyObject *merge_dock(PyObject *self, PyObject *args) {
    PyObject *ex_o, *cont_o, *wanted_o, *exits_o;
    int blk, stay, fixed_exit, cap, weight;
    (void)self;
    if (!PyArg_ParseTuple(args, "OiSiSSiii", &ex_o, &blk, &cont_o, &stay, &wanted_o, &exits_o, &fixed_exit, &cap,
                          &weight))
        return NULL;
    Exchanger *ex = exchanger_arg(ex_o);
    if (!ex || block_arg(ex, blk)) return NULL;
    Dock *d = ex->dock[blk];
    int m = d->m;
    const uint8_t *cont, *wanted, *exits;
    Py_ssize_t nwanted = PyBytes_GET_SIZE(wanted_o), nexits = PyBytes_GET_SIZE(exits_o);
    if (bytes_arg(cont_o, "cont", m, &cont) || bytes_arg(wanted_o, "wanted", -1, &wanted) ||
        bytes_arg(exits_o, "exits", -1, &exits))
        return NULL;
    int bad = nwanted < 1 || nwanted > MAXBLOCK || !holds(cont, m, stay) || fixed_exit > m;
    for (Py_ssize_t w = 0; w < nwanted && !bad; w++) bad = !holds(cont, m, wanted[w]);
    for (int i = 0; i < m && !bad; i++) bad = cont[i] >= nexits || exits[cont[i]] >= m + (fixed_exit >= 0);
    if (bad) {
        PyErr_SetString(PyExc_ValueError, "_amber_core.merge_dock: stay and 1 to 32 wanted cards of the block, and "
                                          "the exit of each of its cards (cycle_exits)");
        return NULL;
    }
    d->stay = stay;
    d->nwanted = (int)nwanted;
    for (Py_ssize_t w = 0; w < nwanted; w++) d->wanted[w] = wanted[w];
    int h0 = dock_h(d, cont);
    if (h0 > 0 && (!may_dock(d, cont, stay, wanted, (int)nwanted) || dock_never(d, cont, stay, wanted, (int)nwanted)))
        return Py_BuildValue("(iO)", -1, Py_None);
    dock_clear(d);
    uint8_t looked[256] = {0};
    looked[stay] = 1;
    for (Py_ssize_t w = 0; w < nwanted; w++) looked[wanted[w]] = 1;
    MergeCosts c = {0};
    MergeHeap heap = {NULL, 0, 0};
    int failed = 0, found = -1, found_merges = 0;
    int x0 = h0 == 0 ? merge_closing(d, cont, exits, fixed_exit) : 0, added;
    if (dock_find_or_add(d, cont, 255, 255, &added) < 0 || merge_room(&c, d->cap) ||
        MergeHeap_push(&heap, (MergeEntry){weight * x0 + 2 * h0, 0, 0, 0, 0, (int8_t)h0, (int8_t)x0}))
        failed = 1;
    int32_t tie = 0;
    int expanded = 0;
    uint8_t t[MAXBLOCK];
    int ids[MAXBLOCK + 1];
    while (!failed && heap.len) {
        MergeEntry e = MergeHeap_pop(&heap);
        if (c.done[e.state] || c.merges[e.state] != e.merges || c.g[e.state] != e.g) continue;
        if (e.h == 0) {
            found = e.state;
            found_merges = e.merges + e.x;
            break;
        }
        c.done[e.state] = 1;
        expanded++;
        if (expanded > cap) break;
        memcpy(t, d->states + (size_t)e.state * m, m);
        merge_cycles(m, t, exits, fixed_exit, ids);
        int g1 = e.g + 1;
        dock_moves(d, t);
        const int32_t *keys = d->set.keys[d->set.cur];
        for (size_t slot = 0; slot <= d->set.mask; slot++) {
            if (keys[slot] < 0) continue;
            int i = keys[slot] / m, k = keys[slot] % m;
            int x = t[k], y = t[i];
            t[i] = (uint8_t)x;
            t[k] = (uint8_t)y;
            int32_t idx = dock_find_or_add(d, t, i, k, &added);
            t[i] = (uint8_t)y;
            t[k] = (uint8_t)x;
            if (idx < 0) {
                failed = 1;
                break;
            }
            if (d->nstates > c.room && merge_room(&c, d->cap)) {
                failed = 1;
                break;
            }
            if (!added && c.done[idx]) continue;
            int cost = e.merges + (ids[i] != ids[k]);
            if (!added && (c.merges[idx] < cost || (c.merges[idx] == cost && c.g[idx] <= g1))) continue;
            if (added) c.done[idx] = 0;
            c.merges[idx] = cost;
            c.g[idx] = g1;
            d->swap[idx][0] = (uint8_t)i;
            d->swap[idx][1] = (uint8_t)k;
            tie++;
            const uint8_t *now_ = d->states + (size_t)idx * m;
            int hn = (looked[x] || looked[y]) ? dock_h(d, now_) : e.h;
            int xn = hn == 0 ? merge_closing(d, now_, exits, fixed_exit) : 0;
            if (MergeHeap_push(&heap, (MergeEntry){weight * (cost + xn) + g1 + 2 * hn, cost, g1, tie, idx, (int8_t)hn,
                                                   (int8_t)xn})) {
                failed = 1;
                break;
            }
        }
    }
    PyObject *result = NULL;
    if (!failed) {
        if (found < 0) {
            result = Py_BuildValue("(iO)", 0, Py_None);
        } else {
            /* _swaps_to: back from the state found, undoing each state's swap from its parent */
            uint8_t back[MAXBLOCK], steps[2 * 4096];
            int nsteps = 0;
            memcpy(back, d->states + (size_t)found * m, m);
            for (int32_t j = found; d->swap[j][0] != 255;) {
                if (nsteps == 4096) {
                    PyErr_SetString(PyExc_RuntimeError, "_amber_core.merge_dock: a dock of over 4096 swaps");
                    failed = 1;
                    break;
                }
                int i = d->swap[j][0], k = d->swap[j][1];
                steps[2 * nsteps] = (uint8_t)i;
                steps[2 * nsteps + 1] = (uint8_t)k;
                nsteps++;
                uint8_t v = back[i];
                back[i] = back[k];
                back[k] = v;
                j = dock_find_or_add(d, back, 255, 255, &added);
                if (j < 0 || added) {
                    failed = 1;
                    break;
                }
            }
            PyObject *swaps = failed ? NULL : PyTuple_New(nsteps);
            for (int s = 0; swaps && s < nsteps; s++) {
                PyObject *pair = Py_BuildValue("(ii)", steps[2 * (nsteps - 1 - s)], steps[2 * (nsteps - 1 - s) + 1]);
                if (!pair) {
                    Py_CLEAR(swaps);
                    break;
                }
                PyTuple_SET_ITEM(swaps, s, pair);
            }
            if (swaps) result = Py_BuildValue("(i(Ni))", 0, swaps, found_merges);
        }
    }
    free(c.merges);
    free(c.g);
    free(c.done);
    free(heap.e);
    if (failed && !PyErr_Occurred()) PyErr_NoMemory();
    return result;
}

/* ---- the shortening's re-join of a window (amber_shorten's _rejoin_py): iterative deepening ---- */

typedef struct {
    int h;       /* the relative bound after the swap */
    int placed;  /* cards it puts where the goal has them */
    int a, b;    /* the cells */
} Rejoin_move;

static int rejoin_move_cmp(const void *p, const void *q) {
    const Rejoin_move *x = p, *y = q;
    if (x->h != y->h) return x->h < y->h ? -1 : 1;
    if (x->placed != y->placed) return x->placed > y->placed ? -1 : 1;  /* -placed ascending */
    if (x->a != y->a) return x->a < y->a ? -1 : 1;
    return x->b < y->b ? -1 : (x->b > y->b);
}

typedef struct {
    int n, lone, count, most;
    long long nodes, node_cap;
    uint8_t cells[MAXN], blocks[MAXN], dyn[MAXN][4], ndyn[MAXN], dest[256];
    int16_t where[256];
    mask_t nbm[MAXN], stat[MAXN], amask[MAXN];
    uint8_t at[MAXN];
    uint8_t path[2 * MAXN][2];
    int pathlen;
    Rejoin_move *moves;  /* per depth, count * (count - 1) / 2 moves each */
    /* visited: the window's cards (count bytes) -> the fewest swaps that reached them, open addressing */
    uint8_t *vkeys;
    int32_t *vg;
    size_t vmask, vlen;
} Rejoin;

static uint64_t rejoin_key(const Rejoin *r, uint8_t *key) {
    uint64_t h = 1469598103934665603ULL;
    for (int k = 0; k < r->count; k++) {
        key[k] = r->at[r->cells[k]];
        h = (h ^ key[k]) * 1099511628211ULL;
    }
    return h;
}

/* the slot of ``key`` in visited (holding it, or empty: vg < 0) */
static size_t rejoin_slot(const Rejoin *r, const uint8_t *key, uint64_t h) {
    size_t i = (size_t)h & r->vmask;
    while (r->vg[i] >= 0 && memcmp(r->vkeys + i * r->count, key, r->count) != 0) i = (i + 1) & r->vmask;
    return i;
}

static int rejoin_visit(Rejoin *r, const uint8_t *key, uint64_t h, size_t slot, int g) {
    if (r->vg[slot] < 0) {
        if ((r->vlen + 1) * 2 > r->vmask + 1) {
            size_t size = (r->vmask + 1) * 2;
            uint8_t *keys = malloc(size * r->count);
            int32_t *vg = malloc(size * sizeof(int32_t));
            if (!keys || !vg) {
                free(keys);
                free(vg);
                return -1;
            }
            for (size_t i = 0; i < size; i++) vg[i] = -1;
            for (size_t i = 0; i <= r->vmask; i++) {
                if (r->vg[i] < 0) continue;
                const uint8_t *k = r->vkeys + i * r->count;
                uint64_t kh = 1469598103934665603ULL;
                for (int c = 0; c < r->count; c++) kh = (kh ^ k[c]) * 1099511628211ULL;
                size_t j = (size_t)kh & (size - 1);
                while (vg[j] >= 0) j = (j + 1) & (size - 1);
                memcpy(keys + j * r->count, k, r->count);
                vg[j] = r->vg[i];
            }
            free(r->vkeys);
            free(r->vg);
            r->vkeys = keys;
            r->vg = vg;
            r->vmask = size - 1;
            slot = rejoin_slot(r, key, h);
        }
        memcpy(r->vkeys + slot * r->count, key, r->count);
        r->vlen++;
    }
    r->vg[slot] = g;
    return 0;
}

static void rejoin_clear(Rejoin *r) {
    for (size_t i = 0; i <= r->vmask; i++) r->vg[i] = -1;
    r->vlen = 0;
}

/* dfs of _rejoin_py: 1 found (the path in r->path), 0 not, -1 out of memory */
static int rejoin_dfs(Rejoin *r, int h, int limit) {
    if (h == 0) return 1;
    r->nodes++;
    if (r->nodes > r->node_cap) return 0;
    int g = r->pathlen, count = r->count, lone = r->lone;
    int allow_across = g + h + 2 <= limit;
    int16_t cyc[MAXN];
    mask_t welcome[MAXN];
    for (int k = 0; k < count; k++) cyc[k] = -1;
    for (int k = 0; k < count; k++) {
        if (cyc[k] >= 0) continue;
        int m = k;
        while (cyc[m] < 0) {
            cyc[m] = (int16_t)k;
            m = r->dest[r->at[r->cells[m]]];
        }
    }
    for (int k = 0; k < count; k++) {
        mask_t w = r->stat[k];
        for (int t = 0; t < r->ndyn[k]; t++) w |= r->nbm[r->at[r->dyn[k][t]]];
        welcome[k] = w;
    }
    Rejoin_move *moves = r->moves + (size_t)g * ((size_t)count * (count - 1) / 2 + 1);
    int nmoves = 0;
    for (int i = 0; i < count; i++) {
        int a = r->cells[i], x = r->at[a];
        mask_t wa = welcome[i], ma = r->amask[i], nx = r->nbm[x];
        for (int j = i + 1; j < count; j++) {
            if (!allow_across && cyc[j] != cyc[i]) continue;
            int b = r->cells[j], y = r->at[b], legal;
            if (lone < 0) {
                legal = (BIT(welcome[j], x) && BIT(wa, y)) || (BIT(ma, b) && BIT(nx, y));
            } else {
                if (r->blocks[j] != r->blocks[i] && a != lone && b != lone) continue;
                legal = (BIT(ma, b) && BIT(nx, y)) || ((b == lone || BIT(welcome[j], x)) && (a == lone || BIT(wa, y)));
            }
            if (!legal) continue;
            moves[nmoves].h = cyc[j] == cyc[i] ? h - 1 : h + 1;
            moves[nmoves].placed = (r->where[x] == b) + (r->where[y] == a);
            moves[nmoves].a = a;
            moves[nmoves].b = b;
            nmoves++;
        }
    }
    qsort(moves, nmoves, sizeof(Rejoin_move), rejoin_move_cmp);
    uint8_t key[MAXN];
    for (int q = 0; q < nmoves; q++) {
        int a = moves[q].a, b = moves[q].b;
        uint8_t t = r->at[a];
        r->at[a] = r->at[b];
        r->at[b] = t;
        uint64_t kh = rejoin_key(r, key);
        size_t slot = rejoin_slot(r, key, kh);
        int seen = r->vg[slot] >= 0 ? r->vg[slot] : limit + 1;
        if (seen > g + 1) {
            if (rejoin_visit(r, key, kh, slot, g + 1)) return -1;
            r->path[r->pathlen][0] = (uint8_t)a;
            r->path[r->pathlen][1] = (uint8_t)b;
            r->pathlen++;
            int found = rejoin_dfs(r, moves[q].h, limit);
            if (found) return found;
            r->pathlen--;
        }
        t = r->at[a];
        r->at[a] = r->at[b];
        r->at[b] = t;
        if (r->nodes > r->node_cap) return 0;
    }
    return 0;
}

/* _rejoin_py's iterative deepening on ``r`` (its window, ``nbm`` and ``at``, the start, set): from ``need`` to ``most``
 * swaps to ``goal``, at most ``node_cap`` states; 1 found (r->path), 0 not, -1 out of memory */
static int rejoin_run(Rejoin *r, const uint8_t *goal, int need, int most, long long node_cap) {
    int count = r->count;
    r->most = most;
    r->node_cap = node_cap;
    r->nodes = 0;
    r->pathlen = 0;
    for (int c = 0; c < 256; c++) {
        r->where[c] = -1;
        r->dest[c] = 255;
    }
    for (int k = 0; k < count; k++) {
        r->where[goal[r->cells[k]]] = r->cells[k];
        r->dest[goal[r->cells[k]]] = (uint8_t)k;
    }
    r->moves = malloc(((size_t)most + 1) * ((size_t)count * (count - 1) / 2 + 1) * sizeof(Rejoin_move));
    r->vmask = 1023;
    r->vkeys = malloc((r->vmask + 1) * count);
    r->vg = malloc((r->vmask + 1) * sizeof(int32_t));
    int found = 0;
    if (!r->moves || !r->vkeys || !r->vg) {
        found = -1;
    } else {
        uint8_t key[MAXN];
        for (int limit = need; limit <= most; limit += 2) {
            rejoin_clear(r);
            uint64_t kh = rejoin_key(r, key);
            if (rejoin_visit(r, key, kh, rejoin_slot(r, key, kh), 0)) {
                found = -1;
                break;
            }
            found = rejoin_dfs(r, need, limit);
            if (found) break;
            if (r->nodes > r->node_cap) break;
        }
    }
    free(r->moves);
    free(r->vkeys);
    free(r->vg);
    r->moves = NULL;
    r->vkeys = NULL;
    r->vg = NULL;
    return found;
}

/* what a re-join returns: its swaps (a new list) when ``found``, else None */
static PyObject *rejoin_found(const Rejoin *r, int found) {
    if (!found) return Py_NewRef(Py_None);
    PyObject *result = PyList_New(r->pathlen);
    for (int i = 0; result && i < r->pathlen; i++) {
        PyObject *pair = Py_BuildValue("(ii)", r->path[i][0], r->path[i][1]);
        if (!pair) {
            Py_CLEAR(result);
            break;
        }
        PyList_SET_ITEM(result, i, pair);
    }
    return result;
}

static int mask_arg(PyObject *o, const char *what, int count, mask_t *out) {
    const uint8_t *raw;
    if (bytes_arg(o, what, 16 * (Py_ssize_t)count, &raw)) return -1;
    for (int k = 0; k < count; k++) {
        uint64_t lo, hi;
        memcpy(&lo, raw + 16 * k, 8);
        memcpy(&hi, raw + 16 * k + 8, 8);
        out[k] = ((mask_t)hi << 64) | lo;
    }
    return 0;
}

PyDoc_STRVAR(rejoin_doc,
"rejoin(n, lone, nbm, cells, static, dyn, amask, blocks, start, goal, need, most, node_cap) -> swaps or None\n\n"
"amber_shorten's _rejoin_py, compiled (masks as 16 little-endian bytes each; dyn four cells a window cell).");

static PyObject *rejoin(PyObject *self, PyObject *args) {
    int n, lone, need, most;
    long long node_cap;
    PyObject *nbm_o, *cells_o, *static_o, *dyn_o, *amask_o, *blocks_o, *start_o, *goal_o;
    (void)self;
    if (!PyArg_ParseTuple(args, "iiSSSSSSSSiiL", &n, &lone, &nbm_o, &cells_o, &static_o, &dyn_o, &amask_o,
                          &blocks_o, &start_o, &goal_o, &need, &most, &node_cap))
        return NULL;
    Py_ssize_t count = PyBytes_GET_SIZE(cells_o);
    if (n < 2 || n > MAXN || count < 2 || count > n || most < 0 || most > 2 * MAXN) {
        PyErr_SetString(PyExc_ValueError, "_amber_core.rejoin: 2 to 128 cells, a window of 2 or more, most <= 256");
        return NULL;
    }
    Rejoin *r = calloc(1, sizeof(Rejoin));
    if (!r) return PyErr_NoMemory();
    const uint8_t *cells, *dyn, *blocks, *start, *goal;
    if (mask_arg(nbm_o, "nbm", n, r->nbm) || bytes_arg(cells_o, "cells", count, &cells) ||
        mask_arg(static_o, "static", (int)count, r->stat) || bytes_arg(dyn_o, "dyn", 4 * count, &dyn) ||
        mask_arg(amask_o, "amask", (int)count, r->amask) || bytes_arg(blocks_o, "blocks", count, &blocks) ||
        bytes_arg(start_o, "start", n, &start) || bytes_arg(goal_o, "goal", n, &goal)) {
        free(r);
        return NULL;
    }
    r->n = n;
    r->lone = lone;
    r->count = (int)count;
    memcpy(r->at, start, n);
    for (int k = 0; k < count; k++) {
        r->cells[k] = cells[k];
        r->blocks[k] = blocks[k];
        for (int t = 0; t < 4; t++)
            if (dyn[4 * k + t] != 255) r->dyn[k][r->ndyn[k]++] = dyn[4 * k + t];
    }
    int found = rejoin_run(r, goal, need, most, node_cap);
    PyObject *result = found < 0 ? PyErr_NoMemory() : rejoin_found(r, found);
    free(r);
    return result;
}

/* ---- the shortening's carried swaps (amber_shorten's _carry_py): a depth-first search along the solution ---- */

#define CARRY_CELLS_MAX 32

typedef struct {
    int n, lone;
    uint8_t nb[MAXN][2], adj[MAXN][4], nadj[MAXN], fixed[MAXN], block[MAXN];
    mask_t nbm[MAXN], nearmask[MAXN];
} CarryBoard;

/* amber._Board.legal_swap: the move rule over ints */
static inline int carry_lands(const CarryBoard *b, const uint8_t *at, int card, int cell, int left, int arriving) {
    mask_t want = b->nbm[card];
    for (int j = 0; j < b->nadj[cell]; j++) {
        int t = b->adj[cell][j];
        if (BIT(want, t == left ? arriving : at[t])) return 1;
    }
    return 0;
}

static int carry_legal(const CarryBoard *b, const uint8_t *at, int p, int q) {
    if (p == q || b->fixed[p] || b->fixed[q]) return 0;
    int x = at[p], y = at[q];
    if (b->lone < 0) return carry_lands(b, at, x, q, p, y) && carry_lands(b, at, y, p, q, x);
    if (b->block[p] != b->block[q] && p != b->lone && q != b->lone) return 0;
    return (q == b->lone || carry_lands(b, at, x, q, p, y)) && (p == b->lone || carry_lands(b, at, y, p, q, x));
}

/* a carried permutation as a Python dict keeps it: its cells in the order they were put in */
typedef struct {
    uint8_t len, key[CARRY_CELLS_MAX], val[CARRY_CELLS_MAX];
} Perm;

static inline int perm_find(const Perm *d, int c) {
    for (int i = 0; i < d->len; i++)
        if (d->key[i] == c) return i;
    return -1;
}

static inline int perm_get(const Perm *d, int c) {
    int i = perm_find(d, c);
    return i < 0 ? c : d->val[i];
}

static void perm_set(Perm *d, int c, int v) {
    int i = perm_find(d, c);
    if (i < 0) {
        d->key[d->len] = (uint8_t)c;
        d->val[d->len++] = (uint8_t)v;
    } else {
        d->val[i] = (uint8_t)v;
    }
}

static void perm_del(Perm *d, int c) {
    int i = perm_find(d, c);
    if (i < 0) return;
    for (int j = i + 1; j < d->len; j++) {
        d->key[j - 1] = d->key[j];
        d->val[j - 1] = d->val[j];
    }
    d->len--;
}

/* _skip: d after the swap of cells a and b is skipped (carried too) */
static Perm perm_skip(const Perm *d, int a, int b) {
    int da = perm_get(d, a), db = perm_get(d, b);
    Perm s = *d;
    perm_set(&s, a, db);
    perm_set(&s, b, da);
    if (db == a) perm_del(&s, a);
    if (da == b) perm_del(&s, b);
    return s;
}

/* _same_cycle: whether cells a and b are on one cycle of d */
static int perm_same_cycle(const Perm *d, int a, int b) {
    if (perm_find(d, a) < 0) return 0;
    for (int x = perm_get(d, a); x != a; x = perm_get(d, x))
        if (x == b) return 1;
    return 0;
}

/* d after the swap of cells a and b is played where it was: its cells follow the swap, in d's order */
static Perm perm_follow(const Perm *d, int a, int b) {
    Perm moved = {0};
    for (int j = 0; j < d->len; j++) {
        int x = d->key[j], y = d->val[j];
        perm_set(&moved, x == a ? b : x == b ? a : x, y == a ? b : y == b ? a : y);
    }
    return moved;
}

/* the swaps played: a list built backwards, each node a swap or a range of the solution's swaps */
typedef struct {
    int32_t parent;
    int32_t a, b;  /* a pair, or the range a..b-1 when ``range`` */
    uint8_t range;
} CarryRun;

/* a state of the search (``far``: a far swap's skip waiting, the Python 6-tuple) */
typedef struct {
    int32_t k, removed, need, k0, base, cur;  /* ``base``: a run (-1 None); ``cur``: a position (-1 None) */
    uint8_t far, fresh;
    mask_t zone;
    Perm d;
} CarryState;

typedef struct {
    int n;
    CarryRun *runs;
    size_t nruns, capruns;
    uint8_t *curs;
    size_t ncurs, capcurs;
    CarryState *stack;
    size_t len, cap;
} Carry;

static int32_t carry_run(Carry *c, int32_t parent, int a, int b, int range) {
    if (c->nruns == c->capruns) {
        size_t cap = c->capruns ? c->capruns * 2 : 256;
        CarryRun *runs = realloc(c->runs, cap * sizeof(CarryRun));
        if (!runs) return -2;
        c->runs = runs;
        c->capruns = cap;
    }
    c->runs[c->nruns] = (CarryRun){parent, a, b, (uint8_t)range};
    return (int32_t)c->nruns++;
}

/* a new position in the pool, a copy of ``at`` (or, when ``at`` is NULL, of the pool's position ``from``) with cells
 * p and q swapped (p < 0: none); -2 when out of memory */
static int32_t carry_cur(Carry *c, const uint8_t *at, int32_t from, int p, int q) {
    if (c->ncurs == c->capcurs) {
        size_t cap = c->capcurs ? c->capcurs * 2 : 256;
        uint8_t *curs = realloc(c->curs, cap * c->n);
        if (!curs) return -2;
        c->curs = curs;
        c->capcurs = cap;
    }
    uint8_t *out = c->curs + c->ncurs * c->n;
    memcpy(out, at ? at : c->curs + (size_t)from * c->n, c->n);
    if (p >= 0) {
        uint8_t x = out[p];
        out[p] = out[q];
        out[q] = x;
    }
    return (int32_t)c->ncurs++;
}

static int carry_push(Carry *c, const CarryState *s) {
    if (c->len == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 256;
        CarryState *stack = realloc(c->stack, cap * sizeof(CarryState));
        if (!stack) return -1;
        c->stack = stack;
        c->cap = cap;
    }
    c->stack[c->len++] = *s;
    return 0;
}

/* _unrun: the swaps of run ``r`` (a new list of pairs), from the solution's ``path`` */
static PyObject *carry_unrun(const Carry *c, int32_t r, PyObject *path) {
    Py_ssize_t total = 0;
    for (int32_t j = r; j >= 0; j = c->runs[j].parent)
        total += c->runs[j].range ? c->runs[j].b - c->runs[j].a : 1;
    PyObject *out = PyList_New(total);
    Py_ssize_t at = total;
    for (int32_t j = r; out && j >= 0; j = c->runs[j].parent) {
        const CarryRun *run = &c->runs[j];
        if (run->range) {
            for (int32_t t = run->b - 1; t >= run->a; t--) {
                PyObject *pair = PyList_GET_ITEM(path, t);
                Py_INCREF(pair);
                PyList_SET_ITEM(out, --at, pair);
            }
        } else {
            PyObject *pair = Py_BuildValue("(ii)", run->a, run->b);
            if (!pair) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(out, --at, pair);
        }
    }
    return out;
}

static int carry_board_arg(PyObject *o, CarryBoard *b) {
    PyObject *nb_o, *adj_o, *fixed_o, *block_o, *near_o;
    if (!PyArg_ParseTuple(o, "iiSSSSS", &b->n, &b->lone, &nb_o, &adj_o, &fixed_o, &block_o, &near_o)) return -1;
    int n = b->n;
    const uint8_t *nb, *adj, *fixed, *block, *near;
    if (n < 2 || n > MAXN) {
        PyErr_Format(PyExc_ValueError, "_amber_core.carry: 2 to %d cells", MAXN);
        return -1;
    }
    if (bytes_arg(nb_o, "nb", 2 * n, &nb) || bytes_arg(adj_o, "adj", 4 * n, &adj) ||
        bytes_arg(fixed_o, "fixed", n, &fixed) || bytes_arg(block_o, "block", n, &block) ||
        bytes_arg(near_o, "near", 5 * n, &near))
        return -1;
    for (int c = 0; c < n; c++) {
        b->nb[c][0] = nb[2 * c];
        b->nb[c][1] = nb[2 * c + 1];
        b->nbm[c] = ONE(nb[2 * c]) | ONE(nb[2 * c + 1]);
        b->nadj[c] = 0;
        for (int j = 0; j < 4; j++)
            if (adj[4 * c + j] != 255) b->adj[c][b->nadj[c]++] = adj[4 * c + j];
        b->fixed[c] = fixed[c];
        b->block[c] = block[c];
        b->nearmask[c] = 0;
        for (int j = 0; j < 5; j++)
            if (near[5 * c + j] != 255) b->nearmask[c] |= ONE(near[5 * c + j]);
    }
    return 0;
}

/* a line for the carried swaps: the board, the path's swaps and their cells as masks, and each swap's legality where
 * the line plays it (``played_ok``, when given) */
typedef struct {
    CarryBoard board;
    int (*swaps)[2];
    mask_t *masks;
    uint8_t *ok;
    int len;
} CarryLine;

static void carry_line_free(CarryLine *L) {
    free(L->swaps);
    free(L->masks);
    free(L->ok);
}

/* ``path`` (a list of (cell, cell)), ``states`` (the positions along it: bytes of n cards, one more than the swaps)
 * and ``played_ok`` (a list of bools, or NULL) read into ``L``; -1 with an exception set */
static int carry_line(PyObject *board_o, PyObject *path, PyObject *states, PyObject *played_ok, CarryLine *L) {
    memset(L, 0, sizeof *L);
    if (carry_board_arg(board_o, &L->board)) return -1;
    int n = L->board.n;
    Py_ssize_t len = PyList_GET_SIZE(path);
    if (PyList_GET_SIZE(states) != len + 1 || (played_ok && PyList_GET_SIZE(played_ok) != len) || len > INT32_MAX) {
        PyErr_SetString(PyExc_ValueError, "_amber_core.carry: the positions along the path, and played_ok of each swap");
        return -1;
    }
    L->len = (int)len;
    L->swaps = malloc((size_t)(len + 1) * sizeof *L->swaps);
    L->masks = malloc((size_t)(len + 1) * sizeof(mask_t));
    L->ok = calloc((size_t)(len + 1), 1);
    if (!L->swaps || !L->masks || !L->ok) {
        carry_line_free(L);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t t = 0; t <= len; t++) {
        PyObject *st = PyList_GET_ITEM(states, t);
        int bad = !PyBytes_Check(st) || PyBytes_GET_SIZE(st) != n;
        if (!bad && t < len) {
            PyObject *pair = PyList_GET_ITEM(path, t);
            long a = -1, b = -1;
            if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
                a = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
                b = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
            }
            int truth = played_ok ? PyObject_IsTrue(PyList_GET_ITEM(played_ok, t)) : 0;
            bad = a < 0 || b < 0 || a >= n || b >= n || truth < 0;
            L->swaps[t][0] = (int)a;
            L->swaps[t][1] = (int)b;
            L->masks[t] = bad ? 0 : ONE(a) | ONE(b);
            L->ok[t] = (uint8_t)(truth > 0);
        }
        if (bad) {
            carry_line_free(L);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_amber_core.carry: swaps of two cells, positions of n cards");
            return -1;
        }
    }
    return 0;
}

/* what a carried search returns, (found or None, nodes), its room freed (``found`` stolen); NULL with an exception set
 * when it ``failed`` */
static PyObject *carry_result(Carry *c, CarryLine *L, PyObject *found, int failed, long long nodes) {
    PyObject *result = NULL;
    if (failed) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
    } else {
        result = Py_BuildValue("(OL)", found ? found : Py_None, nodes);
    }
    Py_XDECREF(found);
    free(c->runs);
    free(c->curs);
    free(c->stack);
    carry_line_free(L);
    return result;
}

/* emit(cur, d's items, removed, zone low, zone high), the Python tries to play d's swaps: a new reference to the
 * swaps or None; NULL with an exception set */
static PyObject *carry_emit(PyObject *emit, const uint8_t *cur, int n, const Perm *d, int removed, mask_t zone) {
    PyObject *items = PyList_New(d->len), *sub = NULL;
    for (int j = 0; items && j < d->len; j++) {
        PyObject *pair = Py_BuildValue("(ii)", d->key[j], d->val[j]);
        if (!pair) {
            Py_CLEAR(items);
            break;
        }
        PyList_SET_ITEM(items, j, pair);
    }
    if (items)
        sub = PyObject_CallFunction(emit, "y#OiKK", (const char *)cur, (Py_ssize_t)n, items, removed,
                                    (unsigned long long)(uint64_t)zone, (unsigned long long)(uint64_t)(zone >> 64));
    Py_XDECREF(items);
    return sub;
}

/* (k, the run's swaps followed by ``sub``), a new reference (``sub`` stolen) */
static PyObject *carry_found(const Carry *c, int k, int32_t run, PyObject *path, PyObject *sub) {
    PyObject *head = carry_unrun(c, run, path), *whole = NULL;
    if (head && sub) whole = PySequence_Concat(head, sub);
    else if (head) whole = Py_NewRef(head);
    Py_XDECREF(head);
    Py_XDECREF(sub);
    return whole ? Py_BuildValue("(iN)", k, whole) : NULL;
}

/* ---- amber_shorten's _emit: a carried permutation's swaps played at a position ---- */

/* the cycles of the permutation ``next`` of the ``len`` cells of ``cells`` */
static int cycles_among(const uint8_t *cells, int len, const int16_t *next) {
    uint8_t seen[MAXN] = {0};
    int cycles = 0;
    for (int j = 0; j < len; j++) {
        int c = cells[j];
        if (seen[c]) continue;
        cycles++;
        while (!seen[c]) {
            seen[c] = 1;
            c = next[c];
        }
    }
    return cycles;
}

/* _emit on ``b``: the swaps (a new list) from ``cur`` to ``cur`` followed by ``d`` (cell ``d->key[j]`` gets the card of
 * cell ``d->val[j]``), at most ``most`` of them, or None; NULL with an exception set */
static PyObject *emit_swaps(const CarryBoard *b, const uint8_t *cur, const Perm *d, int most, long long emit_nodes) {
    int n = b->n, len = d->len;
    int16_t to[MAXN];  /* to[u]: the cell whose card u gets, -1 outside d */
    for (int c = 0; c < n; c++) to[c] = -1;
    for (int j = 0; j < len; j++) to[d->key[j]] = d->val[j];
    if (len - cycles_among(d->key, len, to) > most) return Py_NewRef(Py_None);  /* _min_swaps */
    mask_t inside = 0, cells = 0;
    for (int j = 0; j < len; j++) {
        inside |= ONE(cur[d->key[j]]);
        cells |= ONE(d->key[j]);
    }
    /* every card must be able to get to its cell: a rank-neighbour beside it, outside d's cells, or one of d's cards
     * where d's cells touch it */
    for (int j = 0; j < len; j++) {
        int u = d->key[j], v = d->val[j];
        if (u == b->lone) continue;
        mask_t want = b->nbm[cur[v]];
        mask_t amask = 0;
        for (int t = 0; t < b->nadj[u]; t++) amask |= ONE(b->adj[u][t]);
        if ((want & inside) && (amask & cells)) continue;
        int ok = 0;
        for (int t = 0; t < b->nadj[u] && !ok; t++) {
            int c = b->adj[u][t];
            ok = !BIT(cells, c) && BIT(want, cur[c]);
        }
        if (!ok) return Py_NewRef(Py_None);
    }
    /* each cell of d in turn gets its card by one swap with the cell holding it, while that is legal */
    uint8_t at[MAXN];
    memcpy(at, cur, n);
    int16_t rest[MAXN], back[MAXN];
    for (int c = 0; c < n; c++) rest[c] = back[c] = -1;
    for (int j = 0; j < len; j++) {
        rest[d->key[j]] = d->val[j];
        back[d->val[j]] = d->key[j];
    }
    int out[CARRY_CELLS_MAX][2], nout = 0, left = len;
    for (int j = 0; j < len; j++) {
        int c = d->key[j], e = rest[c];
        if (e < 0) continue;
        if (!carry_legal(b, at, c, e)) break;
        uint8_t t = at[c];
        at[c] = at[e];
        at[e] = t;
        out[nout][0] = c < e ? c : e;
        out[nout][1] = c < e ? e : c;
        nout++;
        int x = back[c];
        back[c] = -1;
        rest[c] = -1;
        back[e] = -1;
        left--;
        if (x == e) {
            rest[e] = -1;
            left--;
        } else {
            rest[x] = (int16_t)e;
            back[e] = (int16_t)x;
        }
    }
    if (!left) {
        PyObject *result = PyList_New(nout);
        for (int i = 0; result && i < nout; i++) {
            PyObject *pair = Py_BuildValue("(ii)", out[i][0], out[i][1]);
            if (!pair) {
                Py_CLEAR(result);
                break;
            }
            PyList_SET_ITEM(result, i, pair);
        }
        return result;
    }
    /* else _rejoin among d's cells from cur to its goal, within emit_nodes states */
    uint8_t goal[MAXN];
    memcpy(goal, cur, n);
    for (int j = 0; j < len; j++) goal[d->key[j]] = cur[d->val[j]];
    for (int j = 0; j < len; j++)
        if (b->fixed[d->key[j]]) return Py_NewRef(Py_None);  /* a start card never moves */
    Rejoin *r = calloc(1, sizeof(Rejoin));
    if (!r) return PyErr_NoMemory();
    r->n = n;
    r->lone = b->lone;
    r->count = len;
    memcpy(r->at, cur, n);
    for (int c = 0; c < n; c++) r->nbm[c] = b->nbm[c];
    int16_t index[MAXN];
    for (int c = 0; c < n; c++) index[c] = -1;
    int k = 0;
    for (int c = 0; c < n; c++)
        if (BIT(cells, c)) {
            r->cells[k] = (uint8_t)c;
            index[c] = (int16_t)k++;
        }
    /* _relative_bound: the cells minus the cycles of the cards' way from cur to goal */
    int16_t where[256], next[MAXN];
    for (int k2 = 0; k2 < len; k2++) where[goal[r->cells[k2]]] = r->cells[k2];
    for (int k2 = 0; k2 < len; k2++) next[r->cells[k2]] = where[cur[r->cells[k2]]];
    int need = len - cycles_among(r->cells, len, next);
    PyObject *result;
    if (need > most) {
        result = Py_NewRef(Py_None);
    } else {
        /* _Window: what the cells outside offer each window cell, the window cells it touches, its cells and block */
        for (int k2 = 0; k2 < len; k2++) {
            int c = r->cells[k2];
            mask_t m = 0, am = 0;
            for (int t = 0; t < b->nadj[c]; t++) {
                int a = b->adj[c][t];
                am |= ONE(a);
                if (index[a] < 0) m |= b->nbm[cur[a]];
                else r->dyn[k2][r->ndyn[k2]++] = (uint8_t)a;
            }
            r->stat[k2] = m;
            r->amask[k2] = am;
            r->blocks[k2] = b->block[c];
        }
        int found = rejoin_run(r, goal, need, most, emit_nodes);
        result = found < 0 ? PyErr_NoMemory() : rejoin_found(r, found);
    }
    free(r);
    return result;
}

PyDoc_STRVAR(emit_doc,
"emit(board, cur, d, most, emit_nodes) -> swaps or None\n\n"
"amber_shorten's _emit, compiled: board as for carry, d the carried permutation's items (cell, the cell whose card it\n"
"gets), in its order.");

static PyObject *emit(PyObject *self, PyObject *args) {
    PyObject *board_o, *items;
    const char *cur;
    Py_ssize_t ncur;
    int most;
    long long emit_nodes;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!y#O!iL", &PyTuple_Type, &board_o, &cur, &ncur, &PyList_Type, &items, &most,
                          &emit_nodes))
        return NULL;
    CarryBoard board;
    if (carry_board_arg(board_o, &board)) return NULL;
    Py_ssize_t len = PyList_GET_SIZE(items);
    if (ncur != board.n || len > CARRY_CELLS_MAX || most > 2 * MAXN) {
        PyErr_SetString(PyExc_ValueError, "_amber_core.emit: a position of n cards, at most 32 cells carried, most <= 256");
        return NULL;
    }
    Perm d = {0};
    uint8_t used[MAXN] = {0}, got[MAXN] = {0};
    for (Py_ssize_t j = 0; j < len; j++) {
        PyObject *pair = PyList_GET_ITEM(items, j);
        long u = -1, v = -1;
        if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
            u = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
            v = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
        }
        if (u < 0 || v < 0 || u >= board.n || v >= board.n || u == v || used[u] || got[v]) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "_amber_core.emit: d moves each of its cells to another, once");
            return NULL;
        }
        used[u] = got[v] = 1;
        d.key[d.len] = (uint8_t)u;
        d.val[d.len++] = (uint8_t)v;
    }
    for (int j = 0; j < d.len; j++)
        if (!used[d.val[j]]) {
            PyErr_SetString(PyExc_ValueError, "_amber_core.emit: d is a permutation of its cells");
            return NULL;
        }
    return emit_swaps(&board, (const uint8_t *)cur, &d, most, emit_nodes);
}

PyDoc_STRVAR(carry_doc,
"carry(board, path, states, played_ok, i, node_cap, span, cells_cap, symmetric, emit) -> (found, nodes)\n\n"
"amber_shorten's _carry_py, compiled: board is (n, lone, nb, adj, fixed, block, near) as bytes; emit(cur, d, removed,\n"
"zone_low, zone_high) is called where the Python search tries to play d's swaps (it keeps the failed attempts and\n"
"returns the swaps or None); found is (k, swaps) or None.");

static PyObject *carry(PyObject *self, PyObject *args) {
    PyObject *board_o, *path, *states, *played_ok, *emit;
    int i, node_cap, span, cells_cap, symmetric;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!O!iiiipO", &PyTuple_Type, &board_o, &PyList_Type, &path, &PyList_Type, &states,
                          &PyList_Type, &played_ok, &i, &node_cap, &span, &cells_cap, &symmetric, &emit))
        return NULL;
    CarryLine L;
    if (carry_line(board_o, path, states, played_ok, &L)) return NULL;
    if (i < 0 || i >= L.len || cells_cap > CARRY_CELLS_MAX - 2) {
        carry_line_free(&L);
        PyErr_SetString(PyExc_ValueError, "_amber_core.carry: i a swap of the path, at most 30 cells carried");
        return NULL;
    }
    const CarryBoard *board = &L.board;
    int n = board->n, len = L.len, (*swaps)[2] = L.swaps;
    const mask_t *masks = L.masks;
    const uint8_t *ok = L.ok;
#define STATE(k) ((const uint8_t *)PyBytes_AS_STRING(PyList_GET_ITEM(states, (k))))
    Carry c = {n, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0};
    int failed = 0;
    long long nodes = 0;
    int p = swaps[i][0], q = swaps[i][1];
    int end = (int)(len < i + span ? len : i + span);
    CarryState first = {i + 1, 1, 1, i + 1, -1, -1, 0, 1, 0, {0}};
    perm_set(&first.d, p, q);
    perm_set(&first.d, q, p);
    first.cur = carry_cur(&c, STATE(i), -1, -1, -1);
    if (first.cur < 0 || carry_push(&c, &first)) failed = 1;
    PyObject *found = NULL;  /* (k, swaps) */
    uint8_t at[MAXN];
    while (!failed && !found && c.len) {
        CarryState s = c.stack[--c.len];
        if (s.far) {
            int a = swaps[s.k][0], b = swaps[s.k][1];
            Perm skipped = s.d;
            perm_set(&skipped, a, b);
            perm_set(&skipped, b, a);
            int32_t base = s.base;
            if (s.k > s.k0 && (base = carry_run(&c, base, s.k0, s.k, 1)) < -1) {
                failed = 1;
                break;
            }
            s = (CarryState){s.k + 1, s.removed + 1, s.need + 1, s.k + 1, base, -1, 0, 1, 0, skipped};
        }
        int done = 0;
        for (;;) {
            nodes++;
            if (nodes > node_cap) {
                done = 1;
                break;
            }
            if (!s.d.len) {
                int32_t run = s.base;
                if (s.k > s.k0 && (run = carry_run(&c, run, s.k0, s.k, 1)) < -1) {
                    failed = 1;
                    break;
                }
                if (!(found = carry_found(&c, s.k, run, path, NULL))) failed = 1;
                break;
            }
            if (!s.zone)
                for (int j = 0; j < s.d.len; j++) s.zone |= board->nearmask[s.d.key[j]];
            if (!(symmetric && s.k < end && !(masks[s.k] & s.zone) && ok[s.k] && !(s.fresh && s.removed - s.need >= 2)))
                break;
            /* a far swap: played where it was (the next state), its skip noted for later */
            if (s.d.len + 2 <= cells_cap) {
                CarryState far = s;
                far.far = 1;
                if (carry_push(&c, &far)) {
                    failed = 1;
                    break;
                }
            }
            s.k++;
            s.cur = -1;
        }
        if (failed || found || done) break;
        if (s.cur < 0) {
            const uint8_t *st = STATE(s.k);
            memcpy(at, st, n);
            for (int j = 0; j < s.d.len; j++) at[s.d.val[j]] = st[s.d.key[j]];
            if ((s.cur = carry_cur(&c, at, -1, -1, -1)) < 0) {
                failed = 1;
                break;
            }
        }
        int32_t run = s.base;
        if (s.k > s.k0 && (run = carry_run(&c, run, s.k0, s.k, 1)) < -1) {
            failed = 1;
            break;
        }
        CarryState plays[3], cheaper, grown, plain;
        int nplays = 0, has_cheaper = 0, has_grown = 0, has_plain = 0;
        if (s.k < end) {
            int a = swaps[s.k][0], b = swaps[s.k][1];
            int ina = perm_find(&s.d, a) >= 0, inb = perm_find(&s.d, b) >= 0;
            int da = perm_get(&s.d, a), db = perm_get(&s.d, b);
            if (s.d.len + !ina + !inb <= cells_cap) {
                Perm skipped = perm_skip(&s.d, a, b);
                int same = perm_same_cycle(&s.d, a, b);
                CarryState next = {s.k + 1, s.removed + 1, s.need + (same ? -1 : 1), s.k + 1, run, s.cur, 0, 1, 0,
                                   skipped};
                if (same) {
                    cheaper = next;
                    has_cheaper = 1;
                } else {
                    grown = next;
                    has_grown = 1;
                }
            }
            if (ina || inb) {
                if (carry_legal(board, c.curs + (size_t)s.cur * n, da, db)) {
                    int32_t r = carry_run(&c, run, da < db ? da : db, da < db ? db : da, 0);
                    int32_t nc = r < -1 ? -2 : carry_cur(&c, NULL, s.cur, da, db);
                    if (nc < 0) {
                        failed = 1;
                        break;
                    }
                    plays[nplays++] = (CarryState){s.k + 1, s.removed, s.need, s.k + 1, r, nc, 0, 1, s.zone, s.d};
                }
                if (carry_legal(board, c.curs + (size_t)s.cur * n, a, b)) {
                    int32_t r = carry_run(&c, run, a, b, 0);
                    int32_t nc = r < -1 ? -2 : carry_cur(&c, NULL, s.cur, a, b);
                    if (nc < 0) {
                        failed = 1;
                        break;
                    }
                    plays[nplays++] = (CarryState){s.k + 1, s.removed, s.need, s.k + 1, r, nc, 0, 1, 0,
                                                   perm_follow(&s.d, a, b)};
                }
            } else {
                int near = BIT(s.zone, a) || BIT(s.zone, b);
                if ((near || !symmetric) ? carry_legal(board, c.curs + (size_t)s.cur * n, a, b) : ok[s.k]) {
                    int32_t nc = carry_cur(&c, NULL, s.cur, a, b);
                    if (nc < 0) {
                        failed = 1;
                        break;
                    }
                    plain = (CarryState){s.k + 1, s.removed, s.need, s.k0, s.base, nc, 0, (uint8_t)near, s.zone, s.d};
                    has_plain = 1;
                }
            }
        }
        if (s.fresh && s.removed - s.need >= 2) {
            PyObject *sub = carry_emit(emit, c.curs + (size_t)s.cur * n, n, &s.d, s.removed, s.zone);
            if (!sub) {
                failed = 1;
                break;
            }
            if (sub != Py_None) {
                if (!(found = carry_found(&c, s.k, run, path, sub))) failed = 1;
                break;
            }
            Py_DECREF(sub);
            s.fresh = 0;
        }
        if (has_grown && carry_push(&c, &grown)) failed = 1;
        if (has_plain) {
            if (s.fresh) plain.fresh = 1;
            plays[nplays++] = plain;
        }
        for (int j = 0; j < nplays && !failed; j++)
            if (carry_push(&c, &plays[j])) failed = 1;
        if (has_cheaper && !failed && carry_push(&c, &cheaper)) failed = 1;
    }
#undef STATE
    return carry_result(&c, &L, found, failed, nodes);
}

PyDoc_STRVAR(carry_jump_doc,
"carry_jump(board, path, states, i, node_cap, span, cells_cap, emit) -> (found, nodes)\n\n"
"amber_shorten's _carry_jump_py, compiled: the same board, line and emit as carry.");

static PyObject *carry_jump(PyObject *self, PyObject *args) {
    PyObject *board_o, *path, *states, *emit;
    int i, node_cap, span, cells_cap;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!iiiiO", &PyTuple_Type, &board_o, &PyList_Type, &path, &PyList_Type, &states,
                          &i, &node_cap, &span, &cells_cap, &emit))
        return NULL;
    CarryLine L;
    if (carry_line(board_o, path, states, NULL, &L)) return NULL;
    if (i < 0 || i >= L.len || cells_cap > CARRY_CELLS_MAX - 2) {
        carry_line_free(&L);
        PyErr_SetString(PyExc_ValueError, "_amber_core.carry_jump: i a swap of the path, at most 30 cells carried");
        return NULL;
    }
    const CarryBoard *board = &L.board;
    int n = board->n, len = L.len, end = len < i + span ? len : i + span;
    Carry c = {n, NULL, 0, 0, NULL, 0, 0, NULL, 0, 0};
    PyObject *found = NULL;
    int failed = 0;
    long long nodes = 0;
    CarryState first = {i + 1, 1, 1, 0, -1, -1, 0, 0, 0, {0}};
    perm_set(&first.d, L.swaps[i][0], L.swaps[i][1]);
    perm_set(&first.d, L.swaps[i][1], L.swaps[i][0]);
    if (carry_push(&c, &first)) failed = 1;
    uint8_t cur[MAXN];
    while (!failed && !found && c.len) {
        CarryState s = c.stack[--c.len];
        nodes++;
        if (nodes > node_cap) break;
        int32_t run = s.base;
        if (!s.d.len) {
            if (!(found = carry_found(&c, s.k, run, path, NULL))) failed = 1;
            break;
        }
        mask_t zone = 0;
        for (int j = 0; j < s.d.len; j++) zone |= board->nearmask[s.d.key[j]];
        int k = s.k;
        const uint8_t *st = (const uint8_t *)PyBytes_AS_STRING(PyList_GET_ITEM(states, k));
        memcpy(cur, st, n);
        for (int j = 0; j < s.d.len; j++) cur[s.d.val[j]] = st[s.d.key[j]];
        if (s.removed - s.need >= 2) {
            PyObject *sub = carry_emit(emit, cur, n, &s.d, s.removed, zone);
            if (!sub) {
                failed = 1;
                break;
            }
            if (sub != Py_None) {
                if (!(found = carry_found(&c, k, run, path, sub))) failed = 1;
                break;
            }
            Py_DECREF(sub);
        }
        int k0 = k;
        while (k < end && !(L.masks[k] & zone)) k++;
        if (k >= end) continue;
        if (k > k0) {
            if ((run = carry_run(&c, run, k0, k, 1)) < -1) {
                failed = 1;
                break;
            }
            st = (const uint8_t *)PyBytes_AS_STRING(PyList_GET_ITEM(states, k));
            memcpy(cur, st, n);
            for (int j = 0; j < s.d.len; j++) cur[s.d.val[j]] = st[s.d.key[j]];
        }
        int a = L.swaps[k][0], b = L.swaps[k][1];
        int ina = perm_find(&s.d, a) >= 0, inb = perm_find(&s.d, b) >= 0;
        int da = perm_get(&s.d, a), db = perm_get(&s.d, b);
        CarryState plays[2], cheaper;
        int nplays = 0, has_cheaper = 0;
        if (s.d.len + !ina + !inb <= cells_cap) {
            Perm skipped = perm_skip(&s.d, a, b);
            int same = perm_same_cycle(&s.d, a, b);
            CarryState next = {k + 1, s.removed + 1, s.need + (same ? -1 : 1), 0, run, -1, 0, 0, 0, skipped};
            if (same) {
                cheaper = next;
                has_cheaper = 1;
            } else if (carry_push(&c, &next)) {
                failed = 1;
                break;
            }
        }
        if (ina || inb) {
            if (carry_legal(board, cur, da, db)) {
                int32_t r = carry_run(&c, run, da < db ? da : db, da < db ? db : da, 0);
                if (r < -1) {
                    failed = 1;
                    break;
                }
                plays[nplays++] = (CarryState){k + 1, s.removed, s.need, 0, r, -1, 0, 0, 0, s.d};
            }
            if (carry_legal(board, cur, a, b)) {
                int32_t r = carry_run(&c, run, a, b, 0);
                if (r < -1) {
                    failed = 1;
                    break;
                }
                plays[nplays++] = (CarryState){k + 1, s.removed, s.need, 0, r, -1, 0, 0, 0, perm_follow(&s.d, a, b)};
            }
        } else if (carry_legal(board, cur, a, b)) {
            int32_t r = carry_run(&c, run, a, b, 0);
            if (r < -1) {
                failed = 1;
                break;
            }
            plays[nplays++] = (CarryState){k + 1, s.removed, s.need, 0, r, -1, 0, 0, 0, s.d};
        }
        for (int j = 0; j < nplays && !failed; j++)
            if (carry_push(&c, &plays[j])) failed = 1;
        if (has_cheaper && !failed && carry_push(&c, &cheaper)) failed = 1;
    }
    return carry_result(&c, &L, found, failed, nodes);
}

/* ---- Pattern of Amber's kind level: amber_pattern._kind_search_py ---- */

#define KBLOCKS 5
#define KKINDS 5
#define KCELLS (KBLOCKS * KKINDS)

typedef struct {
    int gain;
    uint8_t e[4];  /* a, k1, b, k2 */
    uint8_t n[KCELLS];
} KindMove;

/* _exits_held: every block holds its goal kind, and every foreign kind of a block can leave it */
static int kind_exits(const int *held, const int *home) {
    for (int a = 0; a < KBLOCKS; a++) {
        int mine = held[a];
        if (!(mine >> home[a] & 1)) return 0;
        int rest = mine & ~(1 << home[a]);
        while (rest) {
            int k = rest & -rest;
            rest ^= k;
            int out = 0;
            for (int b = 0; b < KBLOCKS && !out; b++)
                if (b != a && (held[b] & k) && (mine & held[b] & ~k)) out = 1;
            if (!out) return 0;
        }
    }
    return 1;
}

/* held_kinds: the kinds each block holds, as bit masks */
static void kind_held(const uint8_t *m, int *held) {
    for (int a = 0; a < KBLOCKS; a++) {
        held[a] = 0;
        for (int k = 0; k < KKINDS; k++)
            if (m[a * KKINDS + k]) held[a] |= 1 << k;
    }
}

/* _exchanges, in its order: the kind-level exchanges that keep the exits open; returns how many */
static int kind_moves(const uint8_t *m, const int *home, KindMove *out) {
    int held[KBLOCKS], count = 0;
    kind_held(m, held);
    for (int a = 0; a < KBLOCKS; a++) {
        int ra = a * KKINDS;
        for (int b = a + 1; b < KBLOCKS; b++) {
            int common = held[a] & held[b];
            if (!(common & (common - 1))) continue;
            int rb = b * KKINDS;
            for (int k1 = 0; k1 < KKINDS; k1++) {
                if (!(common >> k1 & 1)) continue;
                for (int k2 = 0; k2 < KKINDS; k2++) {
                    if (k2 == k1 || !(common >> k2 & 1)) continue;
                    KindMove *x = &out[count];
                    memcpy(x->n, m, KCELLS);
                    x->n[ra + k1]--;
                    x->n[ra + k2]++;
                    x->n[rb + k2]--;
                    x->n[rb + k1]++;
                    if (!x->n[ra + k1] || !x->n[rb + k2]) {
                        int after[KBLOCKS];
                        memcpy(after, held, sizeof after);
                        if (!x->n[ra + k1]) after[a] &= ~(1 << k1);
                        if (!x->n[rb + k2]) after[b] &= ~(1 << k2);
                        if (!kind_exits(after, home)) continue;
                    }
                    x->gain = (k1 == home[b]) + (k2 == home[a]) - (k1 == home[a]) - (k2 == home[b]);
                    x->e[0] = (uint8_t)a;
                    x->e[1] = (uint8_t)k1;
                    x->e[2] = (uint8_t)b;
                    x->e[3] = (uint8_t)k2;
                    count++;
                }
            }
        }
    }
    return count;
}

/* the order of sorted(_exchanges(...)): gain, then the exchange (a, k1, b, k2) */
static int kind_move_cmp(const void *p, const void *q) {
    const KindMove *x = p, *y = q;
    if (x->gain != y->gain) return x->gain < y->gain ? -1 : 1;
    return memcmp(x->e, y->e, 4);
}

static int kind_foreign(const uint8_t *m, const int *home) {
    int f = 0;
    for (int a = 0; a < KBLOCKS; a++)
        for (int k = 0; k < KKINDS; k++)
            if (k != home[a]) f += m[a * KKINDS + k];
    return f;
}

typedef struct {
    int32_t f;
    int32_t idx;
    uint8_t m[KCELLS];
} KindEntry;

/* the order of the Python tuples (f, matrix): counts are small non-negative ints, so bytes compare alike */
static inline int kind_less(const KindEntry *x, const KindEntry *y) {
    if (x->f != y->f) return x->f < y->f;
    return memcmp(x->m, y->m, KCELLS) < 0;
}

DEFINE_HEAP(KindHeap, KindEntry, kind_less)

/* the states met: matrices by index, with a hash table over them */
typedef struct {
    uint8_t (*m)[KCELLS];
    int32_t *parent;
    uint8_t *done;
    int8_t *memo;  /* the memo's answer when met: 1 True, 0 False, -1 None, -2 none */
    size_t len, cap;
    int32_t *slots;
    size_t mask;
} KindStates;

static uint64_t kind_hash(const uint8_t *m) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < KCELLS; i++) h = (h ^ m[i]) * 1099511628211ULL;
    return h;
}

static void kind_states_free(KindStates *s) {
    free(s->m);
    free(s->parent);
    free(s->done);
    free(s->memo);
    free(s->slots);
    memset(s, 0, sizeof *s);
}

static PyObject *kind_tuple(const uint8_t *m) {
    PyObject *t = PyTuple_New(KCELLS);
    if (!t) return NULL;
    for (int i = 0; i < KCELLS; i++) {
        PyObject *v = PyLong_FromLong(m[i]);
        if (!v) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, i, v);
    }
    return t;
}

/* memo.get(m) as 1 (True), 0 (False), -1 (None), -2 (absent); -3 on an error */
static int kind_memo_get(PyObject *memo, const uint8_t *m) {
    PyObject *key = kind_tuple(m);
    if (!key) return -3;
    PyObject *v = PyDict_GetItemWithError(memo, key);
    Py_DECREF(key);
    if (!v) return PyErr_Occurred() ? -3 : -2;
    if (v == Py_None) return -1;
    int truth = PyObject_IsTrue(v);
    return truth < 0 ? -3 : truth;
}

static int kind_memo_set(PyObject *memo, const uint8_t *m, PyObject *value) {
    PyObject *key = kind_tuple(m);
    if (!key) return -1;
    int r = PyDict_SetItem(memo, key, value);
    Py_DECREF(key);
    return r;
}

/* the index of m among the states, added when new (with its memo answer); -1 on an error; *added tells */
static int32_t kind_state(KindStates *s, PyObject *memo, const uint8_t *m, int *added) {
    if ((s->len + 1) * 2 > s->mask + 1 || !s->slots) {
        size_t size = s->slots ? (s->mask + 1) * 2 : 1024;
        int32_t *slots = malloc(size * sizeof(int32_t));
        if (!slots) return -1;
        for (size_t i = 0; i < size; i++) slots[i] = -1;
        for (size_t k = 0; k < s->len; k++) {
            size_t j = (size_t)kind_hash(s->m[k]) & (size - 1);
            while (slots[j] >= 0) j = (j + 1) & (size - 1);
            slots[j] = (int32_t)k;
        }
        free(s->slots);
        s->slots = slots;
        s->mask = size - 1;
    }
    size_t i = (size_t)kind_hash(m) & s->mask;
    while (s->slots[i] >= 0) {
        if (memcmp(s->m[s->slots[i]], m, KCELLS) == 0) {
            *added = 0;
            return s->slots[i];
        }
        i = (i + 1) & s->mask;
    }
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        void *a = realloc(s->m, cap * KCELLS), *b = realloc(s->parent, cap * sizeof(int32_t));
        if (a) s->m = a;
        if (b) s->parent = b;
        void *c = realloc(s->done, cap), *d = realloc(s->memo, cap);
        if (c) s->done = c;
        if (d) s->memo = d;
        if (!a || !b || !c || !d) return -1;
        s->cap = cap;
    }
    int known = kind_memo_get(memo, m);
    if (known == -3) return -1;
    int32_t k = (int32_t)s->len++;
    memcpy(s->m[k], m, KCELLS);
    s->parent[k] = -1;
    s->done[k] = 0;
    s->memo[k] = (int8_t)known;
    s->slots[i] = k;
    *added = 1;
    return k;
}

/* solved(end): every state from end back to the root known solvable */
static int kind_solved(const KindStates *s, PyObject *memo, int32_t end) {
    for (int32_t k = end; k >= 0; k = s->parent[k])
        if (kind_memo_set(memo, s->m[k], Py_True)) return -1;
    return 0;
}

/* _kind_search_py from m0 (not in the memo, its exits open): a new reference to True, False or None, NULL on an error */
static PyObject *kind_solve(const uint8_t *m0, const int *home, PyObject *memo, long long cap) {
    KindStates s = {0};
    KindHeap heap = {0};
    KindMove moves[KBLOCKS * KBLOCKS * KKINDS * KKINDS];
    PyObject *result = NULL;
    int added;
    /* best-first on the foreign cards */
    int32_t root = kind_state(&s, memo, m0, &added);
    if (root < 0) goto fail;
    KindEntry first = {kind_foreign(m0, home), root, {0}};
    memcpy(first.m, m0, KCELLS);
    if (KindHeap_push(&heap, first)) goto nomem;
    long long done = 0;
    int capped = 0;
    while (heap.len) {
        KindEntry top = KindHeap_pop(&heap);
        if (s.done[top.idx]) continue;
        s.done[top.idx] = 1;
        done++;
        if (top.f == 0) {
            if (kind_solved(&s, memo, top.idx)) goto fail;
            result = Py_NewRef(Py_True);
            goto out;
        }
        if (done > cap) {
            capped = 1;
            break;
        }
        int count = kind_moves(top.m, home, moves);
        for (int i = 0; i < count; i++) {
            int32_t k = kind_state(&s, memo, moves[i].n, &added);
            if (k < 0) goto fail;
            if (!added) continue;
            s.parent[k] = top.idx;
            if (s.memo[k] == 1) {
                if (kind_solved(&s, memo, k)) goto fail;
                result = Py_NewRef(Py_True);
                goto out;
            }
            if (s.memo[k] == 0) continue;
            KindEntry child = {top.f - moves[i].gain, k, {0}};
            memcpy(child.m, moves[i].n, KCELLS);
            if (KindHeap_push(&heap, child)) goto nomem;
        }
    }
    if (!capped) {
        for (size_t k = 0; k < s.len; k++)
            if (kind_memo_set(memo, s.m[k], Py_False)) goto fail;
        result = Py_NewRef(Py_False);
        goto out;
    }
    /* depth-first, most gain first */
    kind_states_free(&s);
    int32_t *stack = NULL;
    size_t slen = 0, scap = 0;
    root = kind_state(&s, memo, m0, &added);
    if (root < 0) goto fail;
    done = 0;
#define KIND_STACK_PUSH(x)                                                   \
    do {                                                                     \
        if (slen == scap) {                                                  \
            size_t c2 = scap ? scap * 2 : 1024;                              \
            int32_t *st = realloc(stack, c2 * sizeof(int32_t));              \
            if (!st) {                                                       \
                free(stack);                                                 \
                goto nomem;                                                  \
            }                                                                \
            stack = st;                                                      \
            scap = c2;                                                       \
        }                                                                    \
        stack[slen++] = (x);                                                 \
    } while (0)
    KIND_STACK_PUSH(root);
    while (slen) {
        int32_t cur = stack[--slen];
        if (s.done[cur]) continue;
        s.done[cur] = 1;
        done++;
        if (kind_foreign(s.m[cur], home) == 0 || s.memo[cur] == 1) {
            free(stack);
            if (kind_solved(&s, memo, cur)) goto fail;
            result = Py_NewRef(Py_True);
            goto out;
        }
        if (done > cap) {
            free(stack);
            if (kind_memo_set(memo, m0, Py_None)) goto fail;
            result = Py_NewRef(Py_None);
            goto out;
        }
        uint8_t at[KCELLS];
        memcpy(at, s.m[cur], KCELLS);
        int count = kind_moves(at, home, moves);
        qsort(moves, (size_t)count, sizeof(KindMove), kind_move_cmp);
        for (int i = 0; i < count; i++) {
            int32_t k = kind_state(&s, memo, moves[i].n, &added);
            if (k < 0) {
                free(stack);
                goto fail;
            }
            if (s.done[k] || s.memo[k] == 0) continue;
            s.parent[k] = cur;
            KIND_STACK_PUSH(k);
        }
    }
#undef KIND_STACK_PUSH
    free(stack);
    if (kind_memo_set(memo, m0, Py_False)) goto fail;
    result = Py_NewRef(Py_False);
    goto out;
nomem:
    PyErr_NoMemory();
fail:
    Py_CLEAR(result);
out:
    free(heap.e);
    kind_states_free(&s);
    return result;
}

static int kind_home_arg(PyObject *o, int *home) {
    const uint8_t *b;
    if (bytes_arg(o, "home", KBLOCKS, &b)) return -1;
    for (int a = 0; a < KBLOCKS; a++) {
        if (b[a] >= KKINDS) {
            PyErr_SetString(PyExc_ValueError, "_amber_core: a block's goal kind is 0-4");
            return -1;
        }
        home[a] = b[a];
    }
    return 0;
}

PyDoc_STRVAR(kind_search_doc,
"kind_search(m, home, memo, cap) -> True, False or None\n\n"
"amber_pattern._kind_search_py, compiled: m is the kind matrix as 25 bytes, home the 5 blocks' kinds as bytes;\n"
"memo (a dict of matrix tuples) is read and written as the Python search does.");

static PyObject *kind_search(PyObject *self, PyObject *args) {
    PyObject *m_o, *home_o, *memo;
    long long cap;
    (void)self;
    if (!PyArg_ParseTuple(args, "SSO!L", &m_o, &home_o, &PyDict_Type, &memo, &cap)) return NULL;
    const uint8_t *m0;
    int home[KBLOCKS];
    if (bytes_arg(m_o, "m", KCELLS, &m0) || kind_home_arg(home_o, home)) return NULL;
    return kind_solve(m0, home, memo, cap);
}

/* kind_solvable: 1 True, 0 False, -1 None, -3 an error */
static int kind_solvable_c(const uint8_t *m, const int *home, PyObject *memo, long long cap) {
    int known = kind_memo_get(memo, m);
    if (known != -2) return known;
    int held[KBLOCKS];
    kind_held(m, held);
    if (!kind_exits(held, home)) return kind_memo_set(memo, m, Py_False) ? -3 : 0;
    PyObject *r = kind_solve(m, home, memo, cap);
    if (!r) return -3;
    known = r == Py_None ? -1 : r == Py_True;
    Py_DECREF(r);
    return known;
}

/* ---- Pattern of Amber's balance search: the children of a node (amber_pattern._balance_children_py) ---- */

#define BALANCE_MAXN 256

/* PatternPlanner.kind_potential: every absent rank costs 1 + lam x (its cyclic distance to the nearest present
 * rank - 1), or 1 + lam x size when none is present; summed in rank order, as the Python loop */
static double kind_potential_c(int size, double lam, uint32_t present) {
    double total = 0.0;
    for (int r = 0; r < size; r++) {
        if (present >> r & 1) continue;
        if (!present) {
            total += 1 + lam * size;
            continue;
        }
        int d = 1;
        while (!(present >> ((r + d) % size) & 1) && !(present >> ((r - d + size) % size) & 1)) d++;
        total += 1 + lam * (d - 1);
    }
    return total;
}

/* imbalance_after (integers only) */
static int imbalance_after_c(int t[KBLOCKS][KBLOCKS], int before, int a, int b, int hf, int hg) {
    if (hf == hg || (a == hg && b == hf) || (a == hf && b == hg)) return before;
    int total = before, d;
    if (a != hf) {
        d = t[a][hf] - t[hf][a];
        total += abs(d - 1) - abs(d);
    }
    if (b != hf) {
        d = t[b][hf] - t[hf][b];
        total += abs(d + 1) - abs(d);
    }
    if (b != hg) {
        d = t[b][hg] - t[hg][b];
        total += abs(d - 1) - abs(d);
    }
    if (a != hg) {
        d = t[a][hg] - t[hg][a];
        total += abs(d + 1) - abs(d);
    }
    return total;
}

/* the cards of a Pattern board for the balance search (PatternPlanner._core_cards) and the movable cards */
typedef struct {
    int n, nmov, goal[KBLOCKS];
    uint8_t home[BALANCE_MAXN], kind[BALANCE_MAXN], rank[BALANCE_MAXN], nb[2 * BALANCE_MAXN], sizes[KKINDS],
        movable[BALANCE_MAXN];
    double lam;
} BalanceCards;

static int balance_cards_arg(PyObject *cards, PyObject *movable_o, BalanceCards *c) {
    PyObject *home_o, *kind_o, *rank_o, *nb_o, *size_o, *goal_o;
    if (!PyTuple_Check(cards) || !PyBytes_Check(movable_o)) {
        PyErr_SetString(PyExc_TypeError, "_amber_core: cards must be PatternPlanner._core_cards, movable bytes");
        return -1;
    }
    if (!PyArg_ParseTuple(cards, "SSSSSSd", &home_o, &kind_o, &rank_o, &nb_o, &size_o, &goal_o, &c->lam)) return -1;
    Py_ssize_t n = PyBytes_GET_SIZE(home_o), nmov = PyBytes_GET_SIZE(movable_o);
    if (n < 2 || n > BALANCE_MAXN || nmov > n) {
        PyErr_SetString(PyExc_ValueError, "_amber_core: 2 to 256 cards, and at most as many movable");
        return -1;
    }
    const uint8_t *home, *kind, *rank, *nb, *sizes, *movable;
    if (bytes_arg(home_o, "home blocks", n, &home) || bytes_arg(kind_o, "kinds", n, &kind) ||
        bytes_arg(rank_o, "ranks", n, &rank) || bytes_arg(nb_o, "neighbours", 2 * n, &nb) ||
        bytes_arg(size_o, "sizes", KKINDS, &sizes) || kind_home_arg(goal_o, c->goal) ||
        bytes_arg(movable_o, "movable", nmov, &movable))
        return -1;
    for (Py_ssize_t x = 0; x < n; x++)
        if (home[x] >= KBLOCKS || kind[x] >= KKINDS || nb[2 * x] >= n || nb[2 * x + 1] >= n || rank[x] >= 32) {
            PyErr_SetString(PyExc_ValueError, "_amber_core: a card's tables are out of range");
            return -1;
        }
    for (Py_ssize_t i = 0; i < nmov; i++)
        if (movable[i] >= n) {
            PyErr_SetString(PyExc_ValueError, "_amber_core: a movable card is out of range");
            return -1;
        }
    c->n = (int)n;
    c->nmov = (int)nmov;
    memcpy(c->home, home, n);
    memcpy(c->kind, kind, n);
    memcpy(c->rank, rank, n);
    memcpy(c->nb, nb, 2 * n);
    memcpy(c->sizes, sizes, KKINDS);
    memcpy(c->movable, movable, nmov);
    return 0;
}

/* kind_potential_c remembered (direct-mapped by kind and ranks present): the same floats, computed once */
#define POTENTIALS 8192

typedef struct {
    uint32_t present[POTENTIALS];
    int8_t kind[POTENTIALS];  /* -1: empty */
    double value[POTENTIALS];
} Potentials;

static double potential_of(const BalanceCards *c, Potentials *memo, int k, uint32_t present) {
    if (!memo) return kind_potential_c(c->sizes[k], c->lam, present);
    size_t slot = ((present * 0x9e3779b1u) >> 19 ^ (uint32_t)k * 0x2545u) & (POTENTIALS - 1);
    if (memo->kind[slot] == k && memo->present[slot] == present) return memo->value[slot];
    double value = kind_potential_c(c->sizes[k], c->lam, present);
    memo->kind[slot] = (int8_t)k;
    memo->present[slot] = present;
    memo->value[slot] = value;
    return value;
}

/* a child of the balance search, as the Python tuple (key, random tie-break, parent node, card f, card g); with a
 * merge cost, ``again`` is 1 + its entry among the docked children put back on the heap (0: not docked yet) */
typedef struct {
    double key, tie;
    int32_t parent, again;
    uint8_t f, g;
} BalanceKid;

/* _balance_children_py: every child of node ``idx`` (at ``depth``, its cards in the blocks ``loc``), in order, to
 * ``emit``; 0, or -1 with an exception set */
static int balance_kids(const BalanceCards *c, Potentials *memo_pot, const uint8_t *loc, PyObject *memo,
                        long long kind_cap, int depth, int idx, double weight, double imbalance_weight, Twister *rng,
                        int (*emit)(void *, const BalanceKid *), void *arg) {
    const uint8_t *home = c->home, *kind = c->kind, *rank = c->rank, *nb = c->nb, *movable = c->movable;
    int n = c->n, nmov = c->nmov;
    for (int x = 0; x < n; x++)
        if (loc[x] >= KBLOCKS) {
            PyErr_SetString(PyExc_ValueError, "_amber_core: a card's block is out of range");
            return -1;
        }
    /* the position at the level of sets: ranks home by kind, transport, the kind matrix */
    uint32_t present[KKINDS] = {0};
    int transport[KBLOCKS][KBLOCKS] = {{0}};
    uint8_t m[KCELLS] = {0};
    for (int x = 0; x < n; x++) {
        if (loc[x] == home[x]) present[kind[x]] |= 1u << rank[x];
        transport[loc[x]][home[x]]++;
        m[loc[x] * KKINDS + kind[x]]++;
    }
    double pots[KKINDS], total = 0.0;
    for (int k = 0; k < KKINDS; k++) {
        pots[k] = potential_of(c, memo_pot, k, present[k]);
        total += pots[k];
    }
    int imb = 0;
    for (int a = 0; a < KBLOCKS; a++)
        for (int b = a + 1; b < KBLOCKS; b++) imb += abs(transport[a][b] - transport[b][a]);
    /* set_exchanges: the members of each block in the order of movable */
    uint8_t members[KBLOCKS][BALANCE_MAXN];
    int nmembers[KBLOCKS] = {0};
    for (int i = 0; i < nmov; i++) members[loc[movable[i]]][nmembers[loc[movable[i]]]++] = movable[i];
    for (int i = 0; i < nmov; i++) {
        int f = movable[i], a = loc[f], f0 = nb[2 * f], f1 = nb[2 * f + 1];
        /* the blocks {loc[f0], loc[f1]}: a set of small ints iterates in ascending order */
        int bs[2], nbs = 0;
        int lo = loc[f0] < loc[f1] ? loc[f0] : loc[f1], hi = loc[f0] < loc[f1] ? loc[f1] : loc[f0];
        bs[nbs++] = lo;
        if (hi != lo) bs[nbs++] = hi;
        for (int j = 0; j < nbs; j++) {
            int b = bs[j];
            if (b == a) continue;
            for (int t = 0; t < nmembers[b]; t++) {
                int g = members[b][t], g0 = nb[2 * g], g1 = nb[2 * g + 1];
                if (!((loc[g0] == a && g0 != f) || (loc[g1] == a && g1 != f))) continue;
                if (!((loc[f0] == b && f0 != g) || (loc[f1] == b && f1 != g))) continue;
                int kf = kind[f], kg = kind[g];
                if (kf != kg && (m[a * KKINDS + kf] == 1 || m[b * KKINDS + kg] == 1)) {
                    /* kind_refused: the exchange at the kind level, then whether no kind plan exists after it */
                    if (m[a * KKINDS + kf] && m[a * KKINDS + kg] && m[b * KKINDS + kf] && m[b * KKINDS + kg]) {
                        uint8_t after[KCELLS];
                        memcpy(after, m, KCELLS);
                        after[a * KKINDS + kf]--;
                        after[a * KKINDS + kg]++;
                        after[b * KKINDS + kg]--;
                        after[b * KKINDS + kf]++;
                        int known = kind_solvable_c(after, c->goal, memo, kind_cap);
                        if (known == -3) return -1;
                        if (known == 0) continue;
                    }
                }
                int hf = home[f], hg = home[g];
                uint32_t mf = present[kf], mg;
                if (a == hf) mf &= ~(1u << rank[f]);
                if (b == hf) mf |= 1u << rank[f];
                mg = kg == kf ? mf : present[kg];
                if (b == hg) mg &= ~(1u << rank[g]);
                if (a == hg) mg |= 1u << rank[g];
                double h;
                if (kg == kf)
                    h = total - pots[kf] + potential_of(c, memo_pot, kf, mg);
                else
                    h = total - pots[kf] - pots[kg] + potential_of(c, memo_pot, kf, mf) +
                        potential_of(c, memo_pot, kg, mg);
                h += imbalance_weight * imbalance_after_c(transport, imb, a, b, hf, hg);
                BalanceKid kid = {(double)(depth + 1) + weight * h, twister_random(rng), idx, 0, (uint8_t)f,
                                  (uint8_t)g};
                if (emit(arg, &kid)) return -1;
            }
        }
    }
    return 0;
}

static int kid_to_list(void *list, const BalanceKid *kid) {
    PyObject *t = Py_BuildValue("(ddiii)", kid->key, kid->tie, kid->parent, kid->f, kid->g);
    int failed = !t || PyList_Append(list, t);
    Py_XDECREF(t);
    return failed ? -1 : 0;
}

/* random.getstate()[1] of a Twister; NULL with an exception set */
static PyObject *twister_state(const Twister *rng) {
    PyObject *state = PyTuple_New(625);
    for (int i = 0; state && i < 625; i++) {
        PyObject *v = i < 624 ? PyLong_FromUnsignedLong(rng->mt[i]) : PyLong_FromLong(rng->index);
        if (!v) {
            Py_CLEAR(state);
            break;
        }
        PyTuple_SET_ITEM(state, i, v);
    }
    return state;
}

PyDoc_STRVAR(balance_children_doc,
"balance_children(cards, movable, loc, memo, kind_cap, depth, idx, weight, imbalance_weight, twister)\n"
"    -> (children, twister)\n\n"
"amber_pattern._balance_children_py, compiled, for a whole lam: cards is PatternPlanner._core_cards, twister\n"
"random.getstate()[1] of the planner's rng (returned advanced past the numbers drawn).");

static PyObject *balance_children(PyObject *self, PyObject *args) {
    PyObject *cards, *movable_o, *loc_o, *memo, *twister_o;
    long long kind_cap;
    int depth, idx;
    double weight, imbalance_weight;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!SSO!LiiddO!", &PyTuple_Type, &cards, &movable_o, &loc_o, &PyDict_Type, &memo,
                          &kind_cap, &depth, &idx, &weight, &imbalance_weight, &PyTuple_Type, &twister_o))
        return NULL;
    BalanceCards c;
    const uint8_t *loc;
    Twister rng;
    if (balance_cards_arg(cards, movable_o, &c) || bytes_arg(loc_o, "loc", c.n, &loc) ||
        twister_arg(twister_o, "balance_children", &rng))
        return NULL;
    PyObject *kids = PyList_New(0);
    if (!kids) return NULL;
    if (balance_kids(&c, NULL, loc, memo, kind_cap, depth, idx, weight, imbalance_weight, &rng, kid_to_list, kids)) {
        Py_DECREF(kids);
        return NULL;
    }
    PyObject *state = twister_state(&rng), *result = NULL;
    if (state) result = PyTuple_Pack(2, kids, state);
    Py_DECREF(kids);
    Py_XDECREF(state);
    return result;
}

/* ---- Pattern of Amber's balance search (amber_pattern.balance_search, for a whole lam, docked) ---- */

static inline int kid_less(const BalanceKid *x, const BalanceKid *y) {
    if (x->key != y->key) return x->key < y->key;
    if (x->tie != y->tie) return x->tie < y->tie;
    if (x->parent != y->parent) return x->parent < y->parent;
    if (x->f != y->f) return x->f < y->f;
    return x->g < y->g;
}

DEFINE_HEAP(KidHeap, BalanceKid, kid_less)

static int kid_to_heap(void *heap, const BalanceKid *kid) {
    if (KidHeap_push(heap, *kid)) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* kid_to_heap with a merge cost: the children weighed from depth 0 and the node's path cost added to each key, as
 * the Python ``k + cost`` */
typedef struct {
    KidHeap *heap;
    double cost;
} CostedKids;

static int kid_to_heap_costed(void *arg, const BalanceKid *kid) {
    const CostedKids *to = arg;
    BalanceKid costed = *kid;
    costed.key = kid->key + to->cost;
    return kid_to_heap(to->heap, &costed);
}

/* _Board.bound: the cells minus the cycles of the permutation taking ``at`` to its goal (``target``: the goal cell of
 * every card) */
static int perm_bound(const uint8_t *at, const uint8_t *target, int n) {
    uint8_t in[256] = {0};
    int cycles = 0;
    for (int i = 0; i < n; i++) {
        if (in[i]) continue;
        cycles++;
        for (int j = i; !in[j]; j = target[at[j]]) in[j] = 1;
    }
    return n - cycles;
}

/* byte strings of one length, each kept once, with a count (open addressing over their numbers) */
typedef struct {
    int len;
    uint8_t *keys;
    uint64_t *hashes;
    int32_t *counts, *slots;
    size_t nkeys, cap, mask;
} ByteSet;

static uint64_t bytes_hash(const uint8_t *c, int len) {
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < len; i++) h = (h ^ c[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static int byteset_init(ByteSet *s, int len) {
    memset(s, 0, sizeof *s);
    s->len = len;
    s->cap = 1024;
    s->mask = 4095;
    s->keys = malloc(s->cap * len);
    s->hashes = malloc(s->cap * sizeof(uint64_t));
    s->counts = malloc(s->cap * sizeof(int32_t));
    s->slots = malloc((s->mask + 1) * sizeof(int32_t));
    if (!s->keys || !s->hashes || !s->counts || !s->slots) return -1;
    for (size_t q = 0; q <= s->mask; q++) s->slots[q] = -1;
    return 0;
}

static void byteset_free(ByteSet *s) {
    free(s->keys);
    free(s->hashes);
    free(s->counts);
    free(s->slots);
}

/* the count of ``key`` (added with count 0 when ``add`` and not there): a pointer to it, NULL when absent (or out of
 * memory when ``add``: *failed set) */
static int32_t *byteset_count(ByteSet *s, const uint8_t *key, int add, int *failed) {
    uint64_t h = bytes_hash(key, s->len);
    size_t slot = (size_t)h & s->mask;
    for (;;) {
        int32_t j = s->slots[slot];
        if (j < 0) break;
        if (s->hashes[j] == h && memcmp(s->keys + (size_t)j * s->len, key, s->len) == 0) return &s->counts[j];
        slot = (slot + 1) & s->mask;
    }
    if (!add) return NULL;
    if (s->nkeys == s->cap) {
        size_t cap = s->cap * 2;
        uint8_t *keys = realloc(s->keys, cap * s->len);
        if (keys) s->keys = keys;
        uint64_t *hashes = realloc(s->hashes, cap * sizeof(uint64_t));
        if (hashes) s->hashes = hashes;
        int32_t *counts = realloc(s->counts, cap * sizeof(int32_t));
        if (counts) s->counts = counts;
        if (!keys || !hashes || !counts) {
            *failed = 1;
            return NULL;
        }
        s->cap = cap;
    }
    int32_t j = (int32_t)s->nkeys++;
    memcpy(s->keys + (size_t)j * s->len, key, s->len);
    s->hashes[j] = h;
    s->counts[j] = 0;
    s->slots[slot] = j;
    if (s->nkeys * 2 > s->mask + 1) {
        size_t size = (s->mask + 1) * 2;
        int32_t *t = malloc(size * sizeof(int32_t));
        if (!t) {
            *failed = 1;
            return NULL;
        }
        for (size_t q = 0; q < size; q++) t[q] = -1;
        for (size_t q = 0; q < s->nkeys; q++) {
            size_t r = (size_t)s->hashes[q] & (size - 1);
            while (t[r] >= 0) r = (r + 1) & (size - 1);
            t[r] = (int32_t)q;
        }
        free(s->slots);
        s->slots = t;
        s->mask = size - 1;
    }
    return &s->counts[j];
}

/* the balance search's nodes: each a position (in ``at`` of the ByteSet of positions, by the same number), its
 * parent, its depth, its cards out, and its swaps from the parent (pairs of cells in ``swaps``); with a merge cost,
 * its path cost and its bound too (the Python ``costs`` and ``bounds``) */
typedef struct {
    int32_t parent, depth, out, bound;
    size_t first, count;
    double cost;
} BalanceNode;

/* a docked child put back on the heap (a merge cost; the Python ``docked``): its swaps (in the store's ``swaps``,
 * kept aside so that it is docked once) and its merges */
typedef struct {
    size_t first, count;
    int merges;
} BalanceAside;

typedef struct {
    BalanceNode *nodes;
    size_t len, cap;
    uint8_t *swaps;
    size_t nswaps, capswaps;
    BalanceAside *aside;
    size_t naside, capaside;
} BalanceStore;

static int store_add(BalanceStore *s, BalanceNode node) {
    if (s->len == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        BalanceNode *nodes = realloc(s->nodes, cap * sizeof(BalanceNode));
        if (!nodes) return -1;
        s->nodes = nodes;
        s->cap = cap;
    }
    s->nodes[s->len++] = node;
    return 0;
}

static int store_swap(BalanceStore *s, int p, int q) {
    if (s->nswaps == s->capswaps) {
        size_t cap = s->capswaps ? s->capswaps * 2 : 8192;
        uint8_t *swaps = realloc(s->swaps, cap * 2);
        if (!swaps) return -1;
        s->swaps = swaps;
        s->capswaps = cap;
    }
    s->swaps[2 * s->nswaps] = (uint8_t)p;
    s->swaps[2 * s->nswaps + 1] = (uint8_t)q;
    s->nswaps++;
    return 0;
}

/* a docked child kept aside: its number + 1 (its ``again``), or 0 out of memory */
static int32_t store_aside(BalanceStore *s, BalanceAside kept) {
    if (s->naside == s->capaside) {
        size_t cap = s->capaside ? s->capaside * 2 : 1024;
        BalanceAside *aside = realloc(s->aside, cap * sizeof(BalanceAside));
        if (!aside) return 0;
        s->aside = aside;
        s->capaside = cap;
    }
    s->aside[s->naside++] = kept;
    return (int32_t)s->naside;
}

/* amber_pattern._trace: the swaps from the first node to node ``idx``, a list of (cell, cell) */
static PyObject *store_trace(const BalanceStore *s, int32_t idx) {
    size_t total = 0;
    for (int32_t j = idx; j >= 0; j = s->nodes[j].parent) total += s->nodes[j].count;
    PyObject *path = PyList_New((Py_ssize_t)total);
    size_t at = total;
    for (int32_t j = idx; path && j >= 0; j = s->nodes[j].parent)
        for (size_t k = s->nodes[j].count; k-- > 0;) {
            const uint8_t *pair = s->swaps + 2 * (s->nodes[j].first + k);
            PyObject *t = Py_BuildValue("(ii)", pair[0], pair[1]);
            if (!t) {
                Py_CLEAR(path);
                break;
            }
            PyList_SET_ITEM(path, (Py_ssize_t)--at, t);
        }
    return path;
}

PyDoc_STRVAR(balance_search_doc,
"balance_search(exchanger, docks, cards, movable, memo, start, limits, twister)\n"
"    -> (path or None, end or None, nearest at, nearest path, expansions, twister)\n\n"
"amber_pattern.balance_search, compiled (a whole lam, docked): limits is (weight, imbalance_weight, kind_cap, cap,\n"
"end_cap, end_out, repeats, proof_after, clear_above, dock_limit or None, node cap or None, nodes used, deadline\n"
"or None[, merge_cost, target]); the docks with their cache as cached_dock, the children as balance_children, the\n"
"planner's random numbers from twister (random.getstate()[1], returned advanced). A merge_cost other than 0 counts\n"
"merges in the path cost (_balance_search_py's merge_cost); target is then the goal cell of every card (bytes).");

static PyObject *balance_search(PyObject *self, PyObject *args) {
    PyObject *ex_o, *docks, *cards, *movable_o, *memo, *start_o, *limits, *twister_o;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO!O!SO!SO!O!", &ex_o, &PyDict_Type, &docks, &PyTuple_Type, &cards, &movable_o,
                          &PyDict_Type, &memo, &start_o, &PyTuple_Type, &limits, &PyTuple_Type, &twister_o))
        return NULL;
    double weight, imbalance_weight;
    long long kind_cap, used;
    int cap, end_cap, end_out, repeats, proof_after;
    Py_ssize_t clear_above;
    PyObject *dock_limit_o, *node_cap_o, *deadline_o, *target_o = NULL;
    double merge_cost = 0.0;
    if (!PyArg_ParseTuple(limits, "ddLiiiiinOOLO|dO", &weight, &imbalance_weight, &kind_cap, &cap, &end_cap, &end_out,
                          &repeats, &proof_after, &clear_above, &dock_limit_o, &node_cap_o, &used, &deadline_o,
                          &merge_cost, &target_o))
        return NULL;
    int costed = merge_cost != 0.0;
    long long dock_limit = -1, node_cap = -1;
    double deadline = 0.0;
    int timed = deadline_o != Py_None;
    if ((dock_limit_o != Py_None && (dock_limit = PyLong_AsLongLong(dock_limit_o)) == -1 && PyErr_Occurred()) ||
        (node_cap_o != Py_None && (node_cap = PyLong_AsLongLong(node_cap_o)) == -1 && PyErr_Occurred()) ||
        (deadline_o != Py_None && (deadline = PyFloat_AsDouble(deadline_o)) == -1.0 && PyErr_Occurred()))
        return NULL;
    Exchanger *ex = exchanger_arg(ex_o);
    BalanceCards c;
    const uint8_t *start;
    Twister rng;
    if (!ex || balance_cards_arg(cards, movable_o, &c) || twister_arg(twister_o, "balance_search", &rng)) return NULL;
    int n = c.n;
    if (ex->ncells != n) {
        PyErr_Format(PyExc_ValueError, "_amber_core.balance_search: %d cards for %d cells", n, ex->ncells);
        return NULL;
    }
    if (bytes_arg(start_o, "start", n, &start)) return NULL;
    /* with a merge cost, the goal cell of every card (for the bounds): a permutation's tables in range */
    const uint8_t *target = NULL;
    if (costed) {
        if (!target_o) {
            PyErr_SetString(PyExc_TypeError, "_amber_core.balance_search: a merge cost needs the cards' goal cells");
            return NULL;
        }
        if (bytes_arg(target_o, "target", n, &target)) return NULL;
        for (int x = 0; x < n; x++)
            if (target[x] >= n || start[x] >= n) {
                PyErr_SetString(PyExc_ValueError, "_amber_core.balance_search: a goal cell or a card is out of range");
                return NULL;
            }
    }
    ByteSet seen, sets_seen;
    BalanceStore store = {0};
    KidHeap heap = {NULL, 0, 0};
    PyObject *result = NULL, *found_path = NULL, *found_end = NULL, *near_path = NULL, *near_at = NULL;
    PyObject *state = NULL;
    Potentials *pots = malloc(sizeof(Potentials));
    int failed = byteset_init(&seen, n) | byteset_init(&sets_seen, n) | !pots, error = 0;
    if (failed) goto done;
    memset(pots->kind, -1, sizeof pots->kind);
    /* the first node: the start, at depth 0 and cost 0 */
    BalanceNode first_node = {.parent = -1, .out = n, .bound = costed ? perm_bound(start, target, n) : 0};
    if (store_add(&store, first_node) || !byteset_count(&seen, start, 1, &failed) ||
        KidHeap_push(&heap, (BalanceKid){0.0, 0.0, -1, 0, 255, 255})) {
        failed = 1;
        goto done;
    }
    int32_t nearest_idx = 0, found = -1;
    int nearest_out = n + 1;
    long long docked = 0;
    uint8_t end[256], loc[256];
    while (heap.len) {
        BalanceKid e = KidHeap_pop(&heap);
        int32_t idx;
        if (e.parent < 0) {
            idx = 0;
        } else {
            const BalanceNode parent = store.nodes[e.parent];
            int merges = 0, fresh = !e.again;
            size_t first = 0, count = 0;
            if (e.again) {
                /* docked before and put back on the heap: its swaps kept aside, its position the parent's after them */
                const BalanceAside *kept = &store.aside[e.again - 1];
                first = kept->first;
                count = kept->count;
                merges = kept->merges;
                memcpy(end, seen.keys + (size_t)e.parent * n, n);
                for (size_t s = first; s < first + count; s++) {
                    const uint8_t *pair = store.swaps + 2 * s;
                    uint8_t moved = end[pair[0]];
                    end[pair[0]] = end[pair[1]];
                    end[pair[1]] = moved;
                }
            } else {
                if (dock_limit >= 0 && docked > dock_limit) break;
                docked++;
                int done_ = ex_exchange(ex, docks, seen.keys + (size_t)e.parent * n, e.f, e.g,
                                        parent.out <= end_out ? end_cap : cap, proof_after, clear_above, end);
                if (done_ < 0) {
                    error = 1;
                    goto done;
                }
                if (!done_) continue;
                if (costed) {
                    /* the merges of its swaps (Python's floor division), known now that it is docked */
                    int rise = (int)ex->nswaps + perm_bound(end, target, n) - parent.bound;
                    merges = (rise - (rise < 0)) / 2;
                    if (merges && !byteset_count(&seen, end, 0, &failed)) {
                        /* dearer than it was weighed: back on the heap, its swaps kept aside */
                        size_t from = store.nswaps;
                        for (size_t s = 0; s < ex->nswaps && !failed; s++)
                            failed = store_swap(&store, ex->swaps[s][0], ex->swaps[s][1]);
                        int32_t again = failed ? 0 : store_aside(&store, (BalanceAside){from, ex->nswaps, merges});
                        if (!again || KidHeap_push(&heap, (BalanceKid){e.key + merge_cost * merges, e.tie, e.parent,
                                                                      again, e.f, e.g})) {
                            failed = 1;
                            goto done;
                        }
                        continue;
                    }
                }
            }
            if (byteset_count(&seen, end, 0, &failed)) continue;
            if (fresh) {
                first = store.nswaps;
                for (size_t s = 0; s < ex->nswaps && !failed; s++)
                    failed = store_swap(&store, ex->swaps[s][0], ex->swaps[s][1]);
                count = store.nswaps - first;
            }
            BalanceNode node = {.parent = e.parent, .depth = parent.depth + 1, .out = n, .first = first,
                                .count = count};
            if (costed) {
                node.cost = parent.cost + 1 + merge_cost * merges;
                node.bound = parent.bound - (int)count + 2 * merges;
            }
            if (failed || store_add(&store, node) || !byteset_count(&seen, end, 1, &failed)) {
                failed = 1;
                goto done;
            }
            idx = (int32_t)store.len - 1;
        }
        const uint8_t *cur = seen.keys + (size_t)idx * n;
        for (int cell = 0; cell < n; cell++) loc[cur[cell]] = ex->block_of[cell];
        int32_t *repeated = byteset_count(&sets_seen, loc, 1, &failed);
        if (!repeated) goto done;
        if (*repeated >= repeats) continue;
        (*repeated)++;
        int out = 0;
        for (int x = 0; x < n; x++) out += loc[x] != c.home[x];
        store.nodes[idx].out = out;
        if (out < nearest_out) {
            nearest_out = out;
            nearest_idx = idx;
        }
        if (out == 0) {
            found = idx;
            break;
        }
        if ((timed && now() >= deadline) || (node_cap >= 0 && node_cap - used <= 0)) break;
        used++;
        if (used % 16 == 0) {
            /* let other threads run (a server's) and signals through (Ctrl-C): the search holds the GIL */
            Py_BEGIN_ALLOW_THREADS
            Py_END_ALLOW_THREADS
            if (PyErr_CheckSignals()) {
                error = 1;
                goto done;
            }
        }
        /* with a merge cost the children are weighed from depth 0 and the node's cost added */
        CostedKids to = {&heap, store.nodes[idx].cost};
        if (costed ? balance_kids(&c, pots, loc, memo, kind_cap, 0, idx, weight, imbalance_weight, &rng,
                                  kid_to_heap_costed, &to)
                   : balance_kids(&c, pots, loc, memo, kind_cap, store.nodes[idx].depth, idx, weight,
                                  imbalance_weight, &rng, kid_to_heap, &heap)) {
            error = 1;
            goto done;
        }
    }
    if (found >= 0) {
        found_path = store_trace(&store, found);
        found_end = PyBytes_FromStringAndSize((const char *)seen.keys + (size_t)found * n, n);
    } else {
        found_path = Py_NewRef(Py_None);
        found_end = Py_NewRef(Py_None);
    }
    near_path = store_trace(&store, nearest_idx);
    near_at = PyBytes_FromStringAndSize((const char *)seen.keys + (size_t)nearest_idx * n, n);
    state = twister_state(&rng);
    if (found_path && found_end && near_path && near_at && state)
        result = Py_BuildValue("(OOOOLO)", found_path, found_end, near_at, near_path, used, state);
done:
    if (failed && !error && !PyErr_Occurred()) PyErr_NoMemory();
    Py_XDECREF(found_path);
    Py_XDECREF(found_end);
    Py_XDECREF(near_path);
    Py_XDECREF(near_at);
    Py_XDECREF(state);
    byteset_free(&seen);
    byteset_free(&sets_seen);
    free(pots);
    free(store.nodes);
    free(store.swaps);
    free(store.aside);
    free(heap.e);
    return result;
}

static PyMethodDef methods[] = {
    {"search", search, METH_VARARGS, search_doc},
    {"exchanger", exchanger, METH_VARARGS, exchanger_doc},
    {"never_docks", never_docks, METH_VARARGS, never_docks_doc},
    {"cached_dock", cached_dock, METH_VARARGS, cached_dock_doc},
    {"exchange", exchange, METH_VARARGS, exchange_doc},
    {"merge_dock", merge_dock, METH_VARARGS, merge_dock_doc},
    {"rejoin", rejoin, METH_VARARGS, rejoin_doc},
    {"emit", emit, METH_VARARGS, emit_doc},
    {"carry", carry, METH_VARARGS, carry_doc},
    {"carry_jump", carry_jump, METH_VARARGS, carry_jump_doc},
    {"kind_search", kind_search, METH_VARARGS, kind_search_doc},
    {"balance_children", balance_children, METH_VARARGS, balance_children_doc},
    {"balance_search", balance_search, METH_VARARGS, balance_search_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_amber_core",
    "The Amber solver's inner searches, compiled: each the very search of its Python reference (compiled.py).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__amber_core(void) {
    uint64_t z = 0x9e3779b97f4a7c15ULL;
    for (int c = 0; c < MAXN; c++)
        for (int x = 0; x < MAXN; x++) {
            /* splitmix64 */
            uint64_t v = (z += 0x9e3779b97f4a7c15ULL);
            v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
            v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
            zobrist[c][x] = v ^ (v >> 31);
        }
    return PyModule_Create(&module);
}
