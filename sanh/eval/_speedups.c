/*
 * sanh.eval._speedups: the hot loops of the hand evaluators, in C.
 *
 * Optional: when this module is not built, sanh.eval falls back to pure Python and NumPy with
 * the same results. The order of hands is NOT defined here: Python builds the five-card and
 * three-card tables as data (sanh/eval/lookup.py) and hands them over through init_poker() and
 * init_three(); this module only derives the best-of-6 and best-of-7 tables from them and runs
 * the look-ups.
 *
 * Cards are integers rank * 4 + suit (ranks 2..A = 0..12, suits c d h s = 0..3).
 *
 * Seven-card evaluation. Each card has a 64-bit key: the low 32 bits hold 5^rank, so the sum over
 * a hand is the base-5 count key of its rank multiset; bits 32..47 hold one 4-bit counter per
 * suit, started at 3, so a counter reaches 8 (its top bit) exactly when a suit has 5 or more
 * cards. A hand with a flush plays its best flush (with at most 7 cards nothing else can beat
 * it), found in an 8192-entry table indexed by that suit's rank mask. Otherwise the strength
 * depends only on the rank multiset: the count key goes through a perfect hash
 * (hash-and-displace, built at init) into a table of the best five-card class of every multiset
 * of 5, 6 or 7 ranks.
 *
 * evaluate_batch() runs that over an array of rows without the GIL, on up to `threads` threads
 * (a pool of workers kept between batches, where POSIX threads exist); the caller
 * (sanh/eval/batch.py) decides how many from the batch's size.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Worker threads for big batches: POSIX threads with GCC/Clang atomics; elsewhere every batch
   runs in the calling thread (same results; -DSANH_NO_THREADS builds that way anywhere). */
#if defined(HAVE_PTHREAD_H) && (defined(__GNUC__) || defined(__clang__)) &&                    \
    !defined(SANH_NO_THREADS)
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#define BATCH_THREADS 1
#else
#define BATCH_THREADS 0
#endif
#define MAX_THREADS 64

#define ABI_VERSION 2
#define NCLASSES 7462
#define EMPTY 0xFFFF

#define TBITS 17
#define TSIZE (1u << TBITS)
#define BBITS 14
#define NBUCKETS (1u << BBITS)

#define SUIT_INIT (0x3333ULL << 32)
#define FLUSH_BITS (0x8888ULL << 32)

#define NTHREE (2 * 2197)

/* The batch loop's bit for a card, suit-major: bits 16 * suit + rank, so that the rank mask of a
   suit is the 13 bits of its 16-bit lane. */
#define CARD_BIT(card) (1ULL << (16 * ((card) & 3) + ((card) >> 2)))

static uint64_t card_key[52];
typedef uint64_t u64x2 __attribute__((vector_size(16)));
#define POISON (1ULL << 60)
#define POISONED (7ULL << 60) /* the sum of 1 to 7 POISONs has one of these bits set */
static u64x2 batch_both[256]; /* {card_key, CARD_BIT(card)}, or {POISON, 0} for 52..255 */
static uint64_t hash_mult;
static uint32_t disp[NBUCKETS];
static uint16_t rank_table[TSIZE];
static uint16_t flush_table[8192];
static int poker_ready = 0;

static uint16_t three_table[2][NTHREE];
static int three_ready[2] = {0, 0};

static PyObject *small_ints[NCLASSES];

static const char RANK_CHARS[] = "23456789TJQKA";
static const char SUIT_CHARS[] = "cdhs";

/* ---------------------------------------------------------------- perfect hash
 *
 * Hash and displace: h = key * hash_mult (64 bits); the key's bucket is the top BBITS bits of
 * the low 32 bits of h, its position the top TBITS bits of h, and its slot is position XOR
 * disp[bucket]. init_poker() picks disp[] bucket by bucket, biggest first, so that no two of
 * the 73,775 keys share a slot (trying further multipliers if a bucket cannot be placed). */

static inline uint32_t bucket_of(uint64_t h) { return (uint32_t)h >> (32 - BBITS); }
static inline uint32_t pos_of(uint64_t h) { return (uint32_t)(h >> (64 - TBITS)); }
static inline uint32_t slot_of(uint32_t key) {
    uint64_t h = (uint64_t)key * hash_mult;
    return pos_of(h) ^ disp[bucket_of(h)];
}

static uint64_t splitmix64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Every count vector (13 ranks, each 0..4) summing to `total`, as base-5 keys. */
static void enumerate_keys(int rank, int left, uint32_t key, uint32_t power, uint32_t *out,
                           size_t *count) {
    if (rank == 13) {
        if (left == 0) out[(*count)++] = key;
        return;
    }
    for (int c = 0; c <= 4 && c <= left; c++) {
        enumerate_keys(rank + 1, left - c, key + (uint32_t)c * power, power * 5, out, count);
    }
}

typedef struct {
    uint32_t bucket;
    uint32_t size;
} bucket_info;

static int cmp_bucket(const void *a, const void *b) {
    const bucket_info *x = a, *y = b;
    if (x->size != y->size) return x->size < y->size ? 1 : -1;
    return x->bucket < y->bucket ? -1 : (x->bucket > y->bucket);
}

/* Build disp[] for these keys with hash_mult; 0 on success, -1 to retry with another mult. */
static int try_build_hash(const uint32_t *keys, size_t n, uint32_t *start, uint32_t *order,
                          uint8_t *used) {
    bucket_info *info = malloc(sizeof(bucket_info) * NBUCKETS);
    uint32_t *pos = malloc(sizeof(uint32_t) * n);
    int status = 0;
    if (!info || !pos) {
        free(info);
        free(pos);
        return -2;
    }
    memset(start, 0, sizeof(uint32_t) * (NBUCKETS + 1));
    for (size_t i = 0; i < n; i++) {
        uint64_t h = (uint64_t)keys[i] * hash_mult;
        start[bucket_of(h) + 1]++;
    }
    for (uint32_t b = 0; b < NBUCKETS; b++) start[b + 1] += start[b];
    {
        uint32_t *fill = malloc(sizeof(uint32_t) * NBUCKETS);
        if (!fill) {
            free(info);
            free(pos);
            return -2;
        }
        memcpy(fill, start, sizeof(uint32_t) * NBUCKETS);
        for (size_t i = 0; i < n; i++) {
            uint64_t h = (uint64_t)keys[i] * hash_mult;
            uint32_t b = bucket_of(h);
            order[fill[b]++] = (uint32_t)i;
        }
        free(fill);
    }
    for (uint32_t b = 0; b < NBUCKETS; b++) {
        info[b].bucket = b;
        info[b].size = start[b + 1] - start[b];
    }
    qsort(info, NBUCKETS, sizeof(bucket_info), cmp_bucket);
    memset(used, 0, TSIZE);
    memset(disp, 0, sizeof(disp));
    for (uint32_t k = 0; k < NBUCKETS && status == 0; k++) {
        uint32_t b = info[k].bucket, size = info[k].size;
        if (size == 0) break;
        for (uint32_t j = 0; j < size; j++) {
            uint64_t h = (uint64_t)keys[order[start[b] + j]] * hash_mult;
            pos[j] = pos_of(h);
            for (uint32_t i = 0; i < j; i++) {
                if (pos[i] == pos[j]) status = -1; /* same position in a bucket: new mult */
            }
        }
        if (status) break;
        uint32_t d;
        for (d = 0; d < TSIZE; d++) {
            uint32_t j;
            for (j = 0; j < size; j++) {
                if (used[pos[j] ^ d]) break;
            }
            if (j == size) break;
        }
        if (d == TSIZE) {
            status = -1;
            break;
        }
        disp[b] = d;
        for (uint32_t j = 0; j < size; j++) used[pos[j] ^ d] = 1;
    }
    free(info);
    free(pos);
    return status;
}

/* ---------------------------------------------------------------- init */

static int buffer_items(Py_buffer *view, Py_ssize_t itemsize, Py_ssize_t count, const char *name) {
    if (view->len != itemsize * count) {
        PyErr_Format(PyExc_ValueError, "%s: expected %zd bytes, got %zd", name, itemsize * count,
                     view->len);
        return -1;
    }
    return 0;
}

static PyObject *init_poker(PyObject *self, PyObject *args) {
    Py_buffer keys5, values5, flush5;
    uint32_t *keys = NULL, *start = NULL, *order = NULL;
    uint8_t *used = NULL, *have = NULL;
    size_t nkeys = 0, n5 = 0, n6 = 0;
    PyObject *result = NULL;
    if (!PyArg_ParseTuple(args, "y*y*y*", &keys5, &values5, &flush5)) return NULL;
    Py_ssize_t count5 = keys5.len / 4;
    if (buffer_items(&keys5, 4, count5, "keys5") || buffer_items(&values5, 2, count5, "values5") ||
        buffer_items(&flush5, 2, 8192, "flush5"))
        goto done;

    poker_ready = 0;
    for (int card = 0; card < 52; card++) {
        uint64_t power = 1;
        for (int r = 0; r < card / 4; r++) power *= 5;
        card_key[card] = power | (1ULL << (32 + 4 * (card % 4)));
    }
    for (int card = 0; card < 256; card++) {
        batch_both[card][0] = card < 52 ? card_key[card] : POISON;
        batch_both[card][1] = card < 52 ? CARD_BIT(card) : 0;
    }

    /* every rank multiset of 5, 6 and 7 cards: 6,175 + 18,395 + 49,205 keys */
    keys = malloc(sizeof(uint32_t) * 80000);
    start = malloc(sizeof(uint32_t) * (NBUCKETS + 1));
    order = malloc(sizeof(uint32_t) * 80000);
    used = malloc(TSIZE);
    have = malloc(TSIZE);
    if (!keys || !start || !order || !used || !have) {
        PyErr_NoMemory();
        goto done;
    }
    enumerate_keys(0, 5, 0, 1, keys, &nkeys);
    n5 = nkeys;
    enumerate_keys(0, 6, 0, 1, keys, &nkeys);
    n6 = nkeys;
    enumerate_keys(0, 7, 0, 1, keys, &nkeys);
    if ((Py_ssize_t)n5 != count5) {
        PyErr_Format(PyExc_ValueError, "keys5: expected %zu five-card rank multisets, got %zd",
                     n5, count5);
        goto done;
    }

    {
        uint64_t state = 0x5A4E48ULL; /* "sanh": deterministic multipliers */
        int status = -1;
        for (int attempt = 0; attempt < 64 && status == -1; attempt++) {
            hash_mult = splitmix64(&state) | 1;
            status = try_build_hash(keys, nkeys, start, order, used);
        }
        if (status == -2) {
            PyErr_NoMemory();
            goto done;
        }
        if (status != 0) {
            PyErr_SetString(PyExc_RuntimeError, "could not build the perfect hash");
            goto done;
        }
    }

    memset(rank_table, 0xFF, sizeof(rank_table));
    memset(have, 0, TSIZE);
    {
        const uint32_t *k5 = keys5.buf;
        const uint16_t *v5 = values5.buf;
        for (Py_ssize_t i = 0; i < count5; i++) {
            uint32_t s = slot_of(k5[i]);
            if (v5[i] >= NCLASSES) {
                PyErr_SetString(PyExc_ValueError, "values5: strength out of range");
                goto done;
            }
            rank_table[s] = v5[i];
            have[s] = 1;
        }
    }
    for (size_t i = 0; i < n5; i++) {
        if (!have[slot_of(keys[i])]) {
            PyErr_SetString(PyExc_ValueError, "keys5 does not cover every five-card multiset");
            goto done;
        }
    }
    /* best of 6 = best over removing one card; best of 7 likewise from the 6-card values */
    for (size_t i = n5; i < nkeys; i++) {
        uint32_t key = keys[i], rest = key, power = 1;
        int best = -1;
        for (int r = 0; r < 13; r++, rest /= 5, power *= 5) {
            if (rest % 5) {
                int value = rank_table[slot_of(key - power)];
                if (value > best) best = value;
            }
        }
        rank_table[slot_of(key)] = (uint16_t)best;
    }
    (void)n6;

    memcpy(flush_table, flush5.buf, sizeof(flush_table));
    for (uint32_t mask = 0; mask < 8192; mask++) {
        int five = __builtin_popcount(mask) == 5;
        if (five != (flush_table[mask] < NCLASSES) || (!five && flush_table[mask] != EMPTY)) {
            PyErr_SetString(PyExc_ValueError, "flush5: a strength for every five-bit mask only");
            goto done;
        }
    }
    for (int bits = 6; bits <= 7; bits++) {
        for (uint32_t mask = 0; mask < 8192; mask++) {
            if (__builtin_popcount(mask) != bits) continue;
            int best = -1;
            for (int r = 0; r < 13; r++) {
                if (mask & (1u << r)) {
                    int value = flush_table[mask ^ (1u << r)];
                    if (value > best) best = value;
                }
            }
            flush_table[mask] = (uint16_t)best;
        }
    }
    poker_ready = 1;
    result = Py_NewRef(Py_None);
done:
    free(keys);
    free(start);
    free(order);
    free(used);
    free(have);
    PyBuffer_Release(&keys5);
    PyBuffer_Release(&values5);
    PyBuffer_Release(&flush5);
    return result;
}

static PyObject *init_three(PyObject *self, PyObject *args) {
    int kind;
    Py_buffer table;
    if (!PyArg_ParseTuple(args, "iy*", &kind, &table)) return NULL;
    if (kind < 0 || kind > 1) {
        PyBuffer_Release(&table);
        return PyErr_Format(PyExc_ValueError, "unknown three-card kind %d", kind);
    }
    if (buffer_items(&table, 2, NTHREE, "table")) {
        PyBuffer_Release(&table);
        return NULL;
    }
    {
        const uint16_t *values = table.buf;
        for (int r0 = 0; r0 < 13; r0++) {
            for (int r1 = 0; r1 < 13; r1++) {
                for (int r2 = 0; r2 < 13; r2++) {
                    int i = r0 * 169 + r1 * 13 + r2, distinct = r0 != r1 && r1 != r2 && r0 != r2;
                    if (values[i] >= NCLASSES || (distinct && values[i + 2197] >= NCLASSES)) {
                        PyBuffer_Release(&table);
                        return PyErr_Format(PyExc_ValueError,
                                            "table: no strength for ranks %d %d %d", r0, r1, r2);
                    }
                }
            }
        }
    }
    memcpy(three_table[kind], table.buf, sizeof(three_table[kind]));
    three_ready[kind] = 1;
    PyBuffer_Release(&table);
    Py_RETURN_NONE;
}

/* ---------------------------------------------------------------- evaluation */

static inline int eval_poker(const uint8_t *cards, int n) {
    uint64_t acc = SUIT_INIT;
    for (int i = 0; i < n; i++) acc += card_key[cards[i]];
    if (__builtin_expect((acc & FLUSH_BITS) != 0, 0)) {
        int suit = (__builtin_ctzll(acc & FLUSH_BITS) - 35) / 4; /* bit 35 + 4 * suit */
        uint32_t mask = 0;
        for (int i = 0; i < n; i++) {
            if ((cards[i] & 3) == suit) mask |= 1u << (cards[i] >> 2);
        }
        return flush_table[mask];
    }
    return rank_table[slot_of((uint32_t)acc)];
}

static inline int eval_three(int kind, const uint8_t *c) {
    int suited = ((c[0] & 3) == (c[1] & 3)) & ((c[1] & 3) == (c[2] & 3));
    return three_table[kind][(c[0] >> 2) * 169 + (c[1] >> 2) * 13 + (c[2] >> 2) + suited * 2197];
}

static void card_error(long card, int duplicate) {
    if (duplicate) {
        PyErr_Format(PyExc_ValueError, "duplicate card %c%c", RANK_CHARS[card >> 2],
                     SUIT_CHARS[card & 3]);
    } else {
        PyErr_Format(PyExc_ValueError, "card index out of range: %ld", card);
    }
}

/* Read a sequence of min_n..max_n cards into out[]; returns the count or -1 with an error set. */
static int read_cards(PyObject *arg, uint8_t *out, int min_n, int max_n, const char *what) {
    PyObject *seq = PySequence_Fast(arg, "cards must be a sequence of card integers");
    if (!seq) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < min_n || n > max_n) {
        Py_DECREF(seq);
        if (min_n == max_n) {
            PyErr_Format(PyExc_ValueError, "%s needs %d cards, got %zd", what, min_n, n);
        } else {
            PyErr_Format(PyExc_ValueError, "%s needs %d to %d cards, got %zd", what, min_n,
                         max_n, n);
        }
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long card = PyLong_AsLong(items[i]);
        if (card == -1 && PyErr_Occurred()) {
            Py_DECREF(seq);
            return -1;
        }
        if (card < 0 || card >= 52) {
            Py_DECREF(seq);
            card_error(card, 0);
            return -1;
        }
        if (seen & (1ULL << card)) {
            Py_DECREF(seq);
            card_error(card, 1);
            return -1;
        }
        seen |= 1ULL << card;
        out[i] = (uint8_t)card;
    }
    Py_DECREF(seq);
    return (int)n;
}

static int require_poker(void) {
    if (!poker_ready) {
        PyErr_SetString(PyExc_RuntimeError, "sanh.eval._speedups: init_poker() was not called");
        return -1;
    }
    return 0;
}

static PyObject *evaluate(PyObject *self, PyObject *arg) {
    uint8_t cards[7];
    if (require_poker()) return NULL;
    int n = read_cards(arg, cards, 5, 7, "evaluate");
    if (n < 0) return NULL;
    return Py_NewRef(small_ints[eval_poker(cards, n)]);
}

static PyObject *evaluate5(PyObject *self, PyObject *arg) {
    uint8_t cards[5];
    if (require_poker()) return NULL;
    if (read_cards(arg, cards, 5, 5, "evaluate5") < 0) return NULL;
    return Py_NewRef(small_ints[eval_poker(cards, 5)]);
}

static PyObject *rank_three(int kind, PyObject *arg, const char *what) {
    uint8_t cards[3];
    if (!three_ready[kind]) {
        PyErr_SetString(PyExc_RuntimeError, "sanh.eval._speedups: init_three() was not called");
        return NULL;
    }
    if (read_cards(arg, cards, 3, 3, what) < 0) return NULL;
    return Py_NewRef(small_ints[eval_three(kind, cards)]);
}

static PyObject *tcp_rank(PyObject *self, PyObject *arg) {
    return rank_three(0, arg, "a three-card hand");
}

static PyObject *teen_patti_rank(PyObject *self, PyObject *arg) {
    return rank_three(1, arg, "a three-card hand");
}

/* ---------------------------------------------------------------- batches */

/* Load card i of a row whose items are `itemsize` bytes (native byte order). Signed inputs
   are read as unsigned, so a negative card is huge and fails the range check. */
static inline uint64_t load_card(const char *row, Py_ssize_t i, int itemsize) {
    switch (itemsize) {
    case 1:
        return ((const uint8_t *)row)[i];
    case 2:
        return ((const uint16_t *)row)[i];
    case 4:
        return ((const uint32_t *)row)[i];
    default:
        return ((const uint64_t *)row)[i];
    }
}

/* Copy row r into cards[] and check it: every card below 52, none repeated. The common case
   costs one branch a row; a bad row is looked at again to say what is wrong. */
/* The low byte of card i (a card below 256 is its low byte; `wide` catches the rest). */
static inline unsigned low_byte(const char *row, Py_ssize_t i, int itemsize) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    return ((const uint8_t *)row)[i * itemsize + itemsize - 1];
#else
    return ((const uint8_t *)row)[i * itemsize];
#endif
}

#define CHECK_ROW(K)                                                                          \
    do {                                                                                      \
        uint64_t seen = 0;                                                                    \
        for (int i = 0; i < (K); i++) {                                                       \
            uint64_t card = load_card(row, i, ITEMSIZE);                                      \
            if (card >= 52) {                                                                 \
                bad_row = r;                                                                  \
                bad_dup = 0;                                                                  \
                goto out;                                                                     \
            }                                                                                 \
            if (seen & (1ULL << card)) {                                                      \
                bad_row = r;                                                                  \
                bad_dup = 1;                                                                  \
                goto out;                                                                     \
            }                                                                                 \
            seen |= 1ULL << card;                                                             \
            cards[i] = (uint8_t)card;                                                         \
        }                                                                                     \
    } while (0)

/* The batch loop for rows of k cards of `itemsize` bytes (constants once inlined below).
 *
 * A row's cards are summed as their entries of batch_both: acc gets the key, seen the card bits,
 * and each card costs one 16-byte vector add. A repeated card makes the sum of the card bits
 * carry, so it has fewer than k bits set (counted with popcnt; without a fast popcnt, the sum
 * differs from the OR).
 *
 * Items of 1 or 2 bytes are first turned, a chunk at a time, into the byte offsets of their
 * entries, in a loop the compiler vectorises that also finds whether any card is 52 or more;
 * the row loop then reads ready offsets (no shift a card, no range check a row). Wider items
 * (where that conversion costs more than it saves) index the table by their low byte; they are
 * also ORed into `wide`, which must stay below 256, and a card from 52 to 255 adds POISON to the
 * key (bits 60-62 count such cards, so any number of them shows). */

/* Sum one row: from its offsets when `offs` is given (every card checked already), else from its
   items. Returns nonzero for a bad row. */
static inline __attribute__((always_inline)) uint64_t
sum_cards(const char *row, const uint16_t *offs, const int k, const int itemsize,
          const int use_popcount, uint64_t *acc_, uint64_t *seen_) {
    const char *table = (const char *)batch_both;
    uint64_t acc = SUIT_INIT, seen = 0, sum = 0, wide = 0, odd;
    if (use_popcount) {
        u64x2 both = {SUIT_INIT, 0};
        for (int i = 0; i < k; i++) {
            if (offs) {
                both += *(const u64x2 *)(table + offs[i]);
            } else {
                both += batch_both[low_byte(row, i, itemsize)];
                wide |= load_card(row, i, itemsize);
            }
        }
        acc = both[0];
        seen = both[1];
        odd = (uint64_t)(__builtin_popcountll(seen) ^ k);
    } else {
        for (int i = 0; i < k; i++) {
            const uint64_t *entry;
            if (offs) {
                entry = (const uint64_t *)(table + offs[i]);
            } else {
                entry = (const uint64_t *)&batch_both[low_byte(row, i, itemsize)];
                wide |= load_card(row, i, itemsize);
            }
            acc += entry[0];
            seen |= entry[1];
            sum += entry[1];
        }
        odd = sum ^ seen;
    }
    *acc_ = acc;
    *seen_ = seen;
    return offs ? odd : odd | (acc & POISONED) | (wide >> 8);
}

#define CHUNK 256

/* Rows [0, n) of a chunk: the first pass gives every row its rank-multiset strength and lists,
 * without a branch, the rows with a flush (a suit counter's top bit: some 3% of random 7-card
 * hands, too many and too random for a branch to predict); the second pass gives those their
 * best flush, from the suit's 13-bit lane of the card bits. The one branch a row is for a bad
 * row, which ends the loop. Returns -1, or the first bad row. */
static inline __attribute__((always_inline)) Py_ssize_t
chunk_rows(const char *chunk, const uint16_t *offs, Py_ssize_t n, const int k, const int itemsize,
           int32_t *out, const int use_popcount) {
    uint32_t flushes[CHUNK];
    unsigned nflush = 0;
    for (Py_ssize_t r = 0; r < n; r++) {
        uint64_t acc, seen;
        if (__builtin_expect(sum_cards(chunk + r * k * itemsize, offs ? offs + r * k : NULL, k,
                                       itemsize, use_popcount, &acc, &seen) != 0,
                             0)) {
            return r;
        }
        uint64_t h = (uint64_t)(uint32_t)acc * hash_mult;
        out[r] = rank_table[pos_of(h) ^ disp[bucket_of(h)]];
        flushes[nflush] = (uint32_t)r;
        nflush += (acc & FLUSH_BITS) != 0;
    }
    for (unsigned j = 0; j < nflush; j++) {
        Py_ssize_t r = flushes[j];
        uint64_t acc, seen;
        sum_cards(chunk + r * k * itemsize, offs ? offs + r * k : NULL, k, itemsize, use_popcount,
                  &acc, &seen);
        /* the flush suit's counter has its top bit at 35 + 4 * suit; its lane is at 16 * suit */
        unsigned shift = (unsigned)(__builtin_ctzll(acc & FLUSH_BITS) - 35) * 4;
        out[r] = flush_table[(seen >> shift) & 0x1FFF];
    }
    return -1;
}

/* The offsets of a chunk's n * k items into offs[]; returns nonzero if a card is 52 or more. */
#define CHUNK_OFFSETS(TYPE)                                                                   \
    do {                                                                                      \
        const TYPE *items = (const TYPE *)chunk;                                              \
        TYPE most = 0;                                                                        \
        for (Py_ssize_t j = 0; j < n * k; j++) {                                              \
            TYPE card = items[j];                                                             \
            most = card > most ? card : most;                                                 \
            offs[j] = (uint16_t)(card * sizeof(u64x2));                                       \
        }                                                                                     \
        bad = most >= 52;                                                                     \
    } while (0)

/* Returns -1, or the first bad row. */
static inline __attribute__((always_inline)) Py_ssize_t
poker_rows(const char *base, Py_ssize_t nrows, const int k, const int itemsize, int32_t *out,
           const int use_popcount) {
    uint16_t offs[CHUNK * 7];
    const int narrow = itemsize <= 2;
    for (Py_ssize_t start = 0; start < nrows; start += CHUNK) {
        Py_ssize_t n = nrows - start < CHUNK ? nrows - start : CHUNK, good = n;
        const char *chunk = base + start * k * itemsize;
        if (narrow) {
            int bad;
            if (itemsize == 1)
                CHUNK_OFFSETS(uint8_t);
            else
                CHUNK_OFFSETS(uint16_t);
            if (__builtin_expect(bad, 0)) { /* rows before the first with a bad card */
                for (good = 0; good < n; good++) {
                    int i = 0;
                    while (i < k && load_card(chunk, good * k + i, itemsize) < 52) i++;
                    if (i < k) break;
                }
            }
        }
        Py_ssize_t r =
            chunk_rows(chunk, narrow ? offs : NULL, good, k, itemsize, out + start, use_popcount);
        if (r >= 0) return start + r;
        if (good < n) return start + good; /* no repeat before it */
    }
    return -1;
}

#if defined(__x86_64__) || defined(__i386__)
#define POPCOUNT_TARGET __attribute__((target("popcnt")))
#else
#define POPCOUNT_TARGET
#endif

typedef Py_ssize_t (*rows_fn)(const char *, Py_ssize_t, int32_t *);

#define ROWS_FUNCTIONS(K, SIZE)                                                               \
    static Py_ssize_t rows_##K##_##SIZE(const char *b, Py_ssize_t n, int32_t *o) {            \
        return poker_rows(b, n, K, SIZE, o, 0);                                               \
    }                                                                                         \
    POPCOUNT_TARGET static Py_ssize_t rows_##K##_##SIZE##_popcnt(const char *b, Py_ssize_t n, \
                                                                 int32_t *o) {                \
        return poker_rows(b, n, K, SIZE, o, 1);                                               \
    }
#define ROWS_FOR_SIZES(K)                                                                     \
    ROWS_FUNCTIONS(K, 1)                                                                      \
    ROWS_FUNCTIONS(K, 2)                                                                      \
    ROWS_FUNCTIONS(K, 4)                                                                      \
    ROWS_FUNCTIONS(K, 8)
ROWS_FOR_SIZES(5)
ROWS_FOR_SIZES(6)
ROWS_FOR_SIZES(7)

/* [k - 5][log2 itemsize][popcount] */
static const rows_fn ROWS[3][4][2] = {
    {{rows_5_1, rows_5_1_popcnt}, {rows_5_2, rows_5_2_popcnt},
     {rows_5_4, rows_5_4_popcnt}, {rows_5_8, rows_5_8_popcnt}},
    {{rows_6_1, rows_6_1_popcnt}, {rows_6_2, rows_6_2_popcnt},
     {rows_6_4, rows_6_4_popcnt}, {rows_6_8, rows_6_8_popcnt}},
    {{rows_7_1, rows_7_1_popcnt}, {rows_7_2, rows_7_2_popcnt},
     {rows_7_4, rows_7_4_popcnt}, {rows_7_8, rows_7_8_popcnt}},
};

/* Use popcnt where the CPU has it (x86 since 2008; always on ARM64), else the sum check. */
static int fast_popcount(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    return __builtin_cpu_supports("popcnt") ? 1 : 0;
#elif defined(__aarch64__)
    return 1;
#else
    return 0;
#endif
}

static int use_popcount = 0;

#define THREE_LOOP(ITEMSIZE_)                                                                 \
    do {                                                                                      \
        enum { ITEMSIZE = ITEMSIZE_ };                                                        \
        for (r = 0; r < nrows; r++) {                                                         \
            const char *row = base + r * 3 * ITEMSIZE;                                        \
            uint8_t cards[3];                                                                 \
            CHECK_ROW(3);                                                                     \
            out[r] = eval_three(kind, cards);                                                 \
        }                                                                                     \
    } while (0)

static int parse_batch(PyObject *args, int *kind_or_k, Py_buffer *in, Py_ssize_t *nrows,
                       int *itemsize, Py_buffer *outbuf) {
    if (!PyArg_ParseTuple(args, "iy*niw*", kind_or_k, in, nrows, itemsize, outbuf)) return -1;
    return 0;
}

/* ---------------------------------------------------------------- threaded batches
 *
 * A big batch is cut into blocks of whole rows that the calling thread and threads - 1 workers
 * claim one at a time from a shared counter, so a thread that the OS preempts (a shared machine)
 * holds up only its current block. Each block reports its first bad row; the batch reports the
 * lowest, and blocks starting after a bad row already found are skipped (they cannot hold a
 * lower one). Which thread evaluates which row does not change any result. */

typedef struct {
    rows_fn rows;
    const char *base;
    int32_t *out;
    Py_ssize_t nrows, block, row_bytes;
    Py_ssize_t next; /* first row of the next unclaimed block (atomic) */
    Py_ssize_t bad;  /* lowest bad row found so far, or nrows (atomic) */
} batch_job;

static void run_blocks(batch_job *job) {
    for (;;) {
        Py_ssize_t start = __atomic_fetch_add(&job->next, job->block, __ATOMIC_RELAXED);
        if (start >= job->nrows || start >= __atomic_load_n(&job->bad, __ATOMIC_RELAXED)) return;
        Py_ssize_t n = job->nrows - start < job->block ? job->nrows - start : job->block;
        Py_ssize_t r = job->rows(job->base + start * job->row_bytes, n, job->out + start);
        if (r >= 0) {
            Py_ssize_t row = start + r, seen = __atomic_load_n(&job->bad, __ATOMIC_RELAXED);
            while (row < seen && !__atomic_compare_exchange_n(&job->bad, &seen, row, 1,
                                                              __ATOMIC_RELAXED,
                                                              __ATOMIC_RELAXED)) {
            }
        }
    }
}

#if BATCH_THREADS
/* The worker threads: started by the first threaded batch that needs them and then kept, asleep
 * between batches, because waking a sleeping thread costs less than starting one. One batch at a
 * time has the pool (`busy`); a batch that finds it busy runs in its calling thread. A worker
 * joins the posted job at most once, while it is posted and wants more workers; the owner
 * withdraws the job once it has run out of blocks, then waits for the workers still inside it
 * (spinning first, briefly: they are at most one block behind). Workers block every signal,
 * and leave after IDLE_SECONDS without a job, so that a program that batches once does not
 * keep threads (nor, from Python 3.12, get os.fork()'s warning about them). A forked child
 * starts with no workers. */
#define IDLE_SECONDS 0.2
#define SPIN_MICROSECONDS 50
static struct {
    pthread_mutex_t lock;
    pthread_cond_t work; /* a job was posted */
    pthread_cond_t done; /* the last worker left the job */
    int workers;         /* threads started */
    int busy;            /* a batch owns the pool */
    batch_job *job;      /* the posted job, or NULL */
    unsigned long generation;
    int wanted, joined; /* workers the posted job wants, and has had */
    int active;         /* workers inside the job (atomic: the owner spins on it) */
    int waiting;        /* the owner sleeps on `done` */
} pool = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, PTHREAD_COND_INITIALIZER};

static void pool_after_fork_in_child(void) {
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    pthread_cond_t cond = PTHREAD_COND_INITIALIZER;
    pool.lock = lock;
    pool.work = cond;
    pool.done = cond;
    pool.workers = pool.busy = pool.wanted = pool.joined = pool.active = pool.waiting = 0;
    pool.job = NULL;
}

static void *pool_worker(void *unused) {
    unsigned long joined_generation = 0;
    pthread_mutex_lock(&pool.lock);
    for (;;) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += (long)(IDLE_SECONDS * 1e9);
        until.tv_sec += until.tv_nsec / 1000000000;
        until.tv_nsec %= 1000000000;
        while (!pool.job || pool.generation == joined_generation || pool.joined >= pool.wanted) {
            if (pthread_cond_timedwait(&pool.work, &pool.lock, &until) == ETIMEDOUT &&
                !(pool.job && pool.generation != joined_generation && pool.joined < pool.wanted)) {
                pool.workers--;
                pthread_mutex_unlock(&pool.lock);
                return NULL;
            }
        }
        batch_job *job = pool.job;
        joined_generation = pool.generation;
        pool.joined++;
        __atomic_add_fetch(&pool.active, 1, __ATOMIC_RELAXED);
        pthread_mutex_unlock(&pool.lock);
        run_blocks(job);
        pthread_mutex_lock(&pool.lock);
        if (__atomic_sub_fetch(&pool.active, 1, __ATOMIC_RELEASE) == 0 && pool.waiting) {
            pthread_cond_signal(&pool.done);
        }
    }
    return NULL;
}

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* Run the job on the calling thread and up to `helpers` workers; 0 if the pool is busy (the
   caller then runs the job alone). */
static int pool_run(batch_job *job, int helpers) {
    pthread_mutex_lock(&pool.lock);
    if (pool.busy) {
        pthread_mutex_unlock(&pool.lock);
        return 0;
    }
    pool.busy = 1;
    if (pool.workers < helpers) {
        sigset_t all, previous;
        sigfillset(&all);
        int masked = pthread_sigmask(SIG_SETMASK, &all, &previous) == 0;
        while (pool.workers < helpers) {
            pthread_t thread;
            if (pthread_create(&thread, NULL, pool_worker, NULL) != 0) break;
            pthread_detach(thread);
            pool.workers++;
        }
        if (masked) pthread_sigmask(SIG_SETMASK, &previous, NULL);
    }
    /* if fewer threads could be started, the caller and those do every block */
    pool.job = job;
    pool.generation++;
    pool.wanted = helpers;
    pool.joined = 0;
    pthread_cond_broadcast(&pool.work);
    pthread_mutex_unlock(&pool.lock);

    run_blocks(job);
    /* a running worker is at most one block (some 20 us) behind; one that was preempted gets
       the CPU sooner if this thread sleeps, so spin for SPIN_MICROSECONDS at most */
    {
        struct timespec since, now;
        clock_gettime(CLOCK_MONOTONIC, &since);
        for (int spin = 1; __atomic_load_n(&pool.active, __ATOMIC_ACQUIRE); spin++) {
            cpu_relax();
            if (spin % 64 == 0) {
                clock_gettime(CLOCK_MONOTONIC, &now);
                if ((now.tv_sec - since.tv_sec) * 1000000000L + (now.tv_nsec - since.tv_nsec) >
                    SPIN_MICROSECONDS * 1000L)
                    break;
            }
        }
    }
    pthread_mutex_lock(&pool.lock);
    pool.job = NULL; /* a worker woken only now has nothing left to do */
    while (__atomic_load_n(&pool.active, __ATOMIC_ACQUIRE)) {
        pool.waiting = 1;
        pthread_cond_wait(&pool.done, &pool.lock);
    }
    pool.waiting = 0;
    pool.busy = 0;
    pthread_mutex_unlock(&pool.lock);
    return 1;
}
#endif

/* Run rows() over the whole batch on up to `threads` threads; -1 or the first bad row. Called
   without the GIL. */
static Py_ssize_t run_batch(rows_fn rows, const char *base, Py_ssize_t nrows,
                            Py_ssize_t row_bytes, int32_t *out, int threads) {
    if (threads > MAX_THREADS) threads = MAX_THREADS;
    if (!BATCH_THREADS || threads <= 1 || nrows < 2) return rows(base, nrows, out);
    batch_job job = {rows, base, out, nrows, 0, row_bytes, 0, nrows};
    /* about 16 blocks a thread, at most 8,192 rows (some 25 us) each, so that the threads end
       close together; whole 64-row runs of the output */
    job.block = (nrows + threads * 16 - 1) / (threads * 16);
    if (job.block > 8192) job.block = 8192;
    job.block = (job.block + 63) & ~(Py_ssize_t)63;
#if BATCH_THREADS
    if (!pool_run(&job, threads - 1))
#endif
        run_blocks(&job);
    return job.bad < nrows ? job.bad : -1;
}

/* A bad row is reported as (row, duplicate) so that the caller can quote the row's values. */
static PyObject *batch_result(Py_ssize_t bad_row, int bad_dup) {
    if (bad_row < 0) Py_RETURN_NONE;
    return Py_BuildValue("(nO)", bad_row, bad_dup ? Py_True : Py_False);
}

static int check_batch(Py_buffer *in, Py_buffer *outbuf, Py_ssize_t nrows, int k, int itemsize) {
    if (itemsize != 1 && itemsize != 2 && itemsize != 4 && itemsize != 8) {
        PyErr_Format(PyExc_ValueError, "unsupported item size %d", itemsize);
        return -1;
    }
    if (nrows < 0 || in->len != nrows * k * itemsize) {
        PyErr_SetString(PyExc_ValueError, "input buffer does not hold nrows x k cards");
        return -1;
    }
    if (outbuf->len != nrows * 4) {
        PyErr_SetString(PyExc_ValueError, "output buffer does not hold nrows int32 values");
        return -1;
    }
    return 0;
}

static PyObject *evaluate_batch(PyObject *self, PyObject *args) {
    int k, itemsize, threads = 1;
    Py_buffer in, outbuf;
    Py_ssize_t nrows, bad_row = -1;
    int bad_dup = 0;
    if (require_poker()) return NULL;
    if (!PyArg_ParseTuple(args, "iy*niw*|i", &k, &in, &nrows, &itemsize, &outbuf, &threads))
        return NULL;
    if (threads < 1) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&outbuf);
        return PyErr_Format(PyExc_ValueError, "threads must be at least 1, got %d", threads);
    }
    if (k < 5 || k > 7) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&outbuf);
        return PyErr_Format(PyExc_ValueError, "evaluate_batch needs 5 to 7 cards a row, got %d",
                            k);
    }
    if (check_batch(&in, &outbuf, nrows, k, itemsize)) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&outbuf);
        return NULL;
    }
    {
        int log_size = itemsize == 1 ? 0 : itemsize == 2 ? 1 : itemsize == 4 ? 2 : 3;
        rows_fn rows = ROWS[k - 5][log_size][use_popcount];
        const char *base = in.buf;
        int32_t *out = outbuf.buf;
        Py_BEGIN_ALLOW_THREADS;
        bad_row = run_batch(rows, base, nrows, (Py_ssize_t)k * itemsize, out, threads);
        Py_END_ALLOW_THREADS;
        if (bad_row >= 0) {
            const char *row = base + bad_row * k * itemsize;
            bad_dup = 1;
            for (int i = 0; i < k; i++) {
                if (load_card(row, i, itemsize) >= 52) bad_dup = 0;
            }
        }
    }
    PyBuffer_Release(&in);
    PyBuffer_Release(&outbuf);
    return batch_result(bad_row, bad_dup);
}

static PyObject *rank_three_batch(PyObject *self, PyObject *args) {
    int kind, itemsize;
    Py_buffer in, outbuf;
    Py_ssize_t nrows, r, bad_row = -1;
    int bad_dup = 0;
    if (parse_batch(args, &kind, &in, &nrows, &itemsize, &outbuf)) return NULL;
    if (kind < 0 || kind > 1 || !three_ready[kind]) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&outbuf);
        return PyErr_Format(PyExc_ValueError, "three-card kind %d is not initialised", kind);
    }
    if (check_batch(&in, &outbuf, nrows, 3, itemsize)) {
        PyBuffer_Release(&in);
        PyBuffer_Release(&outbuf);
        return NULL;
    }
    const char *base = in.buf;
    int32_t *out = outbuf.buf;
    Py_BEGIN_ALLOW_THREADS;
    switch (itemsize) {
    case 1:
        THREE_LOOP(1);
        break;
    case 2:
        THREE_LOOP(2);
        break;
    case 4:
        THREE_LOOP(4);
        break;
    default:
        THREE_LOOP(8);
        break;
    }
out:
    Py_END_ALLOW_THREADS;
    PyBuffer_Release(&in);
    PyBuffer_Release(&outbuf);
    return batch_result(bad_row, bad_dup);
}

/* ---------------------------------------------------------------- module */

static PyObject *set_fast_popcount(PyObject *self, PyObject *arg) {
    int flag = PyObject_IsTrue(arg);
    if (flag < 0) return NULL;
    PyObject *previous = PyBool_FromLong(use_popcount);
    use_popcount = flag && fast_popcount();
    return previous;
}

static PyObject *max_threads(PyObject *self, PyObject *unused) {
    return PyLong_FromLong(BATCH_THREADS ? MAX_THREADS : 1);
}

static PyMethodDef methods[] = {
    {"init_poker", init_poker, METH_VARARGS,
     "init_poker(keys5, values5, flush5): install the five-card tables (uint32 count keys, "
     "uint16 strengths, uint16[8192] flush strengths by rank mask)."},
    {"init_three", init_three, METH_VARARGS,
     "init_three(kind, table): install a three-card table (kind 0 = Three Card Poker, 1 = Teen "
     "Patti; uint16[2 * 2197] indexed by r0 * 169 + r1 * 13 + r2 + 2197 * suited)."},
    {"evaluate", evaluate, METH_O, "evaluate(cards): the strength of the best five of 5-7 cards."},
    {"evaluate5", evaluate5, METH_O, "evaluate5(cards): the strength of exactly five cards."},
    {"tcp_rank", tcp_rank, METH_O, "tcp_rank(cards): the Three Card Poker strength."},
    {"teen_patti_rank", teen_patti_rank, METH_O,
     "teen_patti_rank(cards): the Teen Patti strength."},
    {"evaluate_batch", evaluate_batch, METH_VARARGS,
     "evaluate_batch(k, cards, nrows, itemsize, out, threads=1): strengths of nrows rows of k "
     "cards into an int32 buffer, on up to `threads` threads; returns None, or (row, duplicate) "
     "for the first bad row."},
    {"max_threads", max_threads, METH_NOARGS,
     "max_threads(): how many threads evaluate_batch can use (1 where threads are unavailable)."},
    {"rank_three_batch", rank_three_batch, METH_VARARGS,
     "rank_three_batch(kind, cards, nrows, itemsize, out): three-card strengths into an int32 "
     "buffer; returns None, or (row, duplicate) for the first bad row."},
    {"set_fast_popcount", set_fast_popcount, METH_O,
     "set_fast_popcount(flag): choose the popcnt batch loops or the portable ones (for tests); "
     "returns the previous choice. The default is what the CPU supports."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "sanh.eval._speedups",
    "C speedups for sanh.eval (optional; the pure-Python path gives the same results).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__speedups(void) {
    for (int i = 0; i < NCLASSES; i++) {
        small_ints[i] = PyLong_FromLong(i);
        if (!small_ints[i]) return NULL;
    }
    use_popcount = fast_popcount();
#if BATCH_THREADS
    {
        static int registered = 0;
        if (!registered && pthread_atfork(NULL, NULL, pool_after_fork_in_child) == 0) {
            registered = 1;
        }
    }
#endif
    PyObject *module = PyModule_Create(&module_def);
    if (!module) return NULL;
    if (PyModule_AddIntConstant(module, "ABI_VERSION", ABI_VERSION) < 0) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
