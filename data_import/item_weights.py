"""Item-item weights for SIMILAR: EASE where the catalogue fits in memory, else cosine.

EASE (Steck 2019, "Embarrassingly Shallow Autoencoders") learns the item-item matrix `B` that
best rebuilds each user's likes from their other likes: with the Gram matrix `G = X^T X` of
the users x movies like matrix `X`, `P = (G + lambda I)^-1` and `B[i, j] = -P[i, j] / P[j, j]`
(zero diagonal). A user's score for movie `j` is `sum_i x_i B[i, j]` over the movies `i` they
liked, so `B[i, j]` is exactly what liking `i` adds to (or takes from) `j`.

Here `X` is the 0/1 like matrix; a user's seeds then weigh `rating - 3` in the query (4 -> 1,
5 -> 2). The inverse is dense: `EASE_MAX_ITEMS` most-liked movies at most (8,000: two 8k x 8k
float32 matrices, 512 MiB, seconds of LAPACK). Movies outside that head get cosine neighbours
with shrinkage, `support / (sqrt(likes_i likes_j) + SHRINK)`, rescaled to the size of the EASE
weights (see `neighbours.derive`).

Popularity damping: the `score` that personal recommendations add up is the weight divided by
`likes_j ** DAMPING`, so that the most liked movies do not fill every list; which neighbours a
movie keeps follow the undamped weight (its `TOP_K` largest positive ones). Measured offline on
six protocols of ml-latest-small (`python -m benchmarks.rec_quality`, temporal 10/20/30 %, a
random 20 % holdout, leave-last-one-out, likes >= 3.5; docs/recommendations.md), with
the best EASE of each run (lambda 50 to 1000) as the bar. Before: rating - 3 in `X`, lambda 400,
damping 0.4, the top 60 by |weight| summed with negatives, seeds by rating then recency: behind
on the random split (0.287 against 0.312; 0.445 against 0.529 for users with 200+ train
ratings) and on 30 %. What a simulation of the stored edges and the query showed on the
random split: the seed cap (100 of up to 1,200 likes) cost 0.013, the truncation to 60
neighbours 0.011, damping 0.4 0.003-0.02; more seeds at fewer neighbours each lost (the
strongest few neighbours of a heavy rater's seeds are mostly movies they have seen); negative
weights kept among the top k lost at k >= 100; seeds chosen by rating then by popularity beat
rating then recency (their neighbourhoods are measured best). Users with fewer than 50 ratings
were the rest of the gap, where 0/1 likes beat rating-weighted ones (0.229 against 0.225 at
k = 200). 0/1 likes, LAMBDA = 300, DAMPING = 0.35, 150 positive neighbours and 100 seeds are the
one setting tried that is above the best EASE on all six (lambda 200 with damping 0.3 lost on
10 % and 30 %, lambda 300 with 0.3 on the random split; 80 seeds on the random split). The
figures of that setting are in docs/recommendations.md; query cost grows with seeds x neighbours (about
twice the edges a heavy rater's call expands).

By movie, the EASE weight alone ranked below plain co-like counts (nDCG@10 0.071 against
0.088): it explains popularity away, and a user's next likes are often popular. `by_movie`
adds the two: the share of the source's fans who liked the target, smoothed towards its
popularity by `BY_MOVIE_PRIOR` pseudo-likes (for sources with few likes), plus
`BY_MOVIE_EASE` times the weight. Over the neighbours stored then (60 by |weight|, 30 by support)
`BY_MOVIE_EASE` = 4 measured 0.092 / 0.067 / 0.138 on temporal splits of 20 % and 10 % and a
random split of ml-latest-small, against 0.088 / 0.058 / 0.139 for co-like counts over every
movie, but its lists were the popular ones the user has seen everywhere (Toy Story: Shawshank,
Star Wars, Forrest Gump, Pulp Fiction, then Toy Story 2). 16 keeps the movie's own kind first
(Toy Story: Toy Story 2, Babe, Shawshank, The Lion King; Heat: Léon, Braveheart, Casino) for
0.086 / 0.063 / 0.114, still above the EASE order (0.074 in the same run), with a higher hit
rate than co-like counts on the 20 % split (HR@10 0.393 against 0.386).
"""

from __future__ import annotations

import numpy as np
from scipy import sparse
from scipy.linalg import lapack

LAMBDA = 300.0
EASE_MAX_ITEMS = 8_000
SHRINK = 10.0
DAMPING = 0.35
BY_MOVIE_PRIOR = 2.0  # by movie: pseudo-likes of the source spread by popularity ...
BY_MOVIE_EASE = 16.0  # ... and how much the item-item weight adds to the liked-together share


def ease(likes: sparse.csr_matrix, lam: float = LAMBDA, block_cells: int = 1 << 23) -> np.ndarray:
    """The dense EASE matrix `B` (zero diagonal) of a users x items matrix of likes.

    `G + lambda I` is symmetric positive definite: its inverse comes from a Cholesky
    factorisation (LAPACK potrf/potri), in float32, 2 to 5 times faster than a float64 LU
    inverse; the weights differ from float64 ones by about 1e-6 of their size.
    """
    gram = _gram(likes, block_cells)
    gram[np.diag_indices_from(gram)] += lam
    factor, info = lapack.spotrf(gram, lower=False, overwrite_a=True, clean=True)
    if info == 0:
        factor, info = lapack.spotri(factor, lower=False, overwrite_c=True)
    if info != 0:
        raise ValueError(f"EASE: the Gram matrix is not positive definite (LAPACK info {info})")
    p = np.triu(factor)
    del factor, gram
    p += np.triu(p, 1).T
    p /= -np.diag(p)[None, :]
    np.fill_diagonal(p, 0.0)
    return p


def _gram(likes: sparse.csr_matrix, block_cells: int) -> np.ndarray:
    """`X^T X` as a dense matrix, built by blocks of rows (a sparse product would hold the whole
    dense result as sparse triples first)."""
    n = likes.shape[1]
    gram = np.empty((n, n), np.float32)
    by_item = likes.T.tocsr()
    step = max(1, block_cells // max(n, 1))
    for start in range(0, n, step):
        gram[start : start + step] = (by_item[start : start + step] @ likes).toarray()
    return gram


def cosine(support: np.ndarray, likes_source: np.ndarray, likes_target: np.ndarray) -> np.ndarray:
    """Cosine of like vectors from co-like counts, shrunk towards 0 for movies with few likes
    (float32: the import computes one per pair of liked movies)."""
    root = np.sqrt(likes_target.astype(np.float32))
    weight = np.multiply.outer(np.sqrt(likes_source.astype(np.float32)), root)
    weight += np.float32(SHRINK)
    np.divide(support, weight, out=weight)
    return weight


def damping(likes: np.ndarray, power: float = DAMPING) -> np.ndarray:
    """The factor each weight towards a movie is multiplied by: `likes ** -power`."""
    return np.maximum(likes, 1).astype(np.float64) ** -power


def by_movie_prior(likes: np.ndarray, users: int) -> np.ndarray:
    """What each target adds to its support as a prior: `BY_MOVIE_PRIOR` pseudo-likes of the
    source shared out by the target's share of users who like it."""
    return BY_MOVIE_PRIOR * likes.astype(np.float64) / max(users, 1)


def by_movie(
    support: np.ndarray, likes_source: np.ndarray, prior: np.ndarray, weight: np.ndarray
) -> np.ndarray:
    """The order of recommendations by movie: the share of the source's fans who liked the
    target, smoothed towards the target's popularity for sources with few likes
    (`(support + prior) / (likes_source + BY_MOVIE_PRIOR)`), plus `BY_MOVIE_EASE` times the
    item-item weight (what liking the source adds to the target beyond its popularity)."""
    share = (support + prior) / (likes_source.astype(np.float64) + BY_MOVIE_PRIOR)
    return share + BY_MOVIE_EASE * weight
