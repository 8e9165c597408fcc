"""Plain-Python references for every tie-break rule, written from docs/conventions.md
alone (no knight imports). Slow and obvious on purpose: the numba kernels and the
tie-tree engine are checked against them.

Squares are 0-based ``(row, col)`` inside, square indices ``row * cols + col`` outside.
"""

from naive import MOVES, ORDER_STRINGS  # moves 1..8 as (d_row, d_col); the 40,320 orders by rank

#: Every rule.
RULES = ("fixed", "pohl", "roth", "corner", "random", "random-order", "squirrel-cull", "pohl-random", "roth-random")
#: Rules whose residual ties the tie order breaks.
ORDER_RULES = ("fixed", "pohl", "roth", "corner")
#: Rules that draw from the random stream (random-order draws orders, the others moves).
RANDOM_RULES = ("random", "random-order", "pohl-random", "roth-random")

# --- the counter-based generator (conventions, "Random choices") -------------------
MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def mix(z):
    """SplitMix64's finaliser on a 64-bit word."""
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
    return z ^ (z >> 31)


def stream_key(*words):
    """Key of a stream: fold the words (seed, rows, cols, start, trial[, attempt])."""
    h = 0
    for w in words:
        h = mix((h + GOLDEN + w) & MASK)
    return h


def draw(key, i):
    """Output ``i`` (0, 1, 2, ...) of the stream ``key``: a 64-bit word."""
    return mix((key + (i + 1) * GOLDEN) & MASK)


def below(key, i, n):
    """Uniform integer in ``[0, n)`` from outputs ``i, i+1, ...``; returns (value, next i).

    An output ``u`` is rejected while ``u < 2**64 mod n`` (so every value is equally likely).
    """
    threshold = (1 << 64) % n
    while True:
        u = draw(key, i)
        i += 1
        if u >= threshold:
            return u % n, i


# --- one run ---------------------------------------------------------------------
def _on(rows, cols, r, c):
    return 0 <= r < rows and 0 <= c < cols


def _degree(rows, cols, visited, r, c):
    return sum(1 for dr, dc in MOVES.values() if _on(rows, cols, r + dr, c + dc) and (r + dr, c + dc) not in visited)


def squirrel_cull_schedule(m):
    """[(order in our numbering, switch square (row, col) 0-based or None)], last switch None.

    Their move i is our move ((i + 4) mod 8) + 1; switch squares off the board never switch.
    """
    table = {
        0: [
            ("34261578", (m - 1, m - 2)),
            ("87642135", (2, 2)),
            ("51867342", (m - 8, 1)),
            ("51342678", (7, m - 3)),
            ("21435678", None),
        ],
        1: [
            ("34261578", (m - 1, m - 2)),
            ("87642135", (2, 2)),
            ("51324678", (m - 6, (m + 9) // 2)),
            ("32481765", None),
        ],
        2: [
            ("34261578", (6, 1)),
            ("87642135", (3, 1)),
            ("54132678", (m - 15, 4)),
            ("52431678", (10, m - 2)),
            ("85647123", (5, (m - 6) // 2)),
            ("15746823", None),
        ],
        3: [
            ("34625718", (m - 1, m - 2)),
            ("42681357", (m - 6, m)),
            ("86512347", (2, 5)),
            ("51867342", (m - 10, 3)),
            ("61825437", ((m + 1) // 2, m - 2)),
            ("71642538", None),
        ],
        4: [
            ("34261578", (m - 1, m - 2)),
            ("87642135", (2, 2)),
            ("51867342", (m - 8, 1)),
            ("51342678", (10, m - 5)),
            ("86753421", (13, (m + 2) // 2)),
            ("78563421", None),
        ],
        5: [
            ("34261578", (m - 1, m - 2)),
            ("87642135", (2, 2)),
            ("51324678", (m - 2, (m - 5) // 2) if m % 16 == 5 else (m - 2, (m - 13) // 2)),
            ("15234678", None),
        ],
        6: [
            ("34261578", (6, 1)),
            ("87642135", (3, 1)),
            ("54132678", (m - 10, 1)),
            ("52431678", (10, m - 2)),
            ("85647123", (3, (m + 8) // 2)),
            ("12453678", None),
        ],
        7: [
            ("34625718", (m - 1, m - 2)),
            ("42681357", (m - 6, m)),
            ("86512347", (2, 5)),
            ("51867342", (m - 6, 3)),
            ("61825437", ((m + 1) // 2, m - 2)),
            ("61357284", None),
        ],
    }[m % 8]
    out = []
    for theirs, square in table:
        ours = "".join(str((int(d) + 4) % 8 + 1) for d in theirs)
        if square is not None:
            r, c = square[0] - 1, square[1] - 1  # 1-based in the table
            square = (r, c) if _on(m, m, r, c) else None
        out.append((ours, square))
    return out


def walk(rows, cols, start, rule, order="12345678", key=0):
    """One run of ``rule`` (any rule but random-order) from square index ``start``.

    Returns (path as a list of square indices, residual tie points, draws used): a
    residual tie point is a step where two or more candidates are left after the
    rule's own criterion, so that the tie order (or the random draw) decides.
    """
    r, c = divmod(start, cols)
    visited = {(r, c)}
    path = [start]
    ties = 0
    i = 0  # next output of the random stream
    schedule = squirrel_cull_schedule(rows) if rule == "squirrel-cull" else None
    stage = 0
    while True:
        if schedule is not None:
            order, switch = schedule[stage]
            if switch == (r, c):
                stage += 1
                order = schedule[stage][0]
        cands = []  # (degree, move, (row, col))
        for move, (dr, dc) in MOVES.items():
            nr, nc = r + dr, c + dc
            if _on(rows, cols, nr, nc) and (nr, nc) not in visited:
                cands.append((_degree(rows, cols, visited, nr, nc), move, (nr, nc)))
        if not cands:
            return path, ties, i
        least = min(d for d, _, _ in cands)
        tied = [(m, sq) for d, m, sq in cands if d == least]
        key_rule = rule.removesuffix("-random")  # pohl-random, roth-random: the key, then a draw
        if key_rule == "pohl":

            def score(sq):
                return sum(
                    _degree(rows, cols, visited, sq[0] + dr, sq[1] + dc)
                    for dr, dc in MOVES.values()
                    if _on(rows, cols, sq[0] + dr, sq[1] + dc) and (sq[0] + dr, sq[1] + dc) not in visited
                )

            best = min(score(sq) for _, sq in tied)
            tied = [(m, sq) for m, sq in tied if score(sq) == best]
        elif key_rule == "roth":

            def dist(sq):
                return (2 * sq[0] - rows + 1) ** 2 + (2 * sq[1] - cols + 1) ** 2

            best = max(dist(sq) for _, sq in tied)
            tied = [(m, sq) for m, sq in tied if dist(sq) == best]
        elif rule == "corner":

            def dist(sq):
                return min((sq[0] - a) ** 2 + (sq[1] - b) ** 2 for a in (0, rows - 1) for b in (0, cols - 1))

            best = min(dist(sq) for _, sq in tied)
            tied = [(m, sq) for m, sq in tied if dist(sq) == best]
        if len(tied) > 1:
            ties += 1
        if rule in RANDOM_RULES and len(tied) > 1:  # random-order's attempts walk as fixed
            tied.sort()  # by move number
            j, i = below(key, i, len(tied))
            _, (r, c) = tied[j]
        else:
            _, (r, c) = min(tied, key=lambda t: order.index(str(t[0])))
        visited.add((r, c))
        path.append(r * cols + c)


def outcome(rows, cols, path):
    """(visited, end, complete, closed) of a path of square indices."""
    (sr, sc), (er, ec) = divmod(path[0], cols), divmod(path[-1], cols)
    complete = len(path) == rows * cols
    closed = complete and sorted((abs(sr - er), abs(sc - ec))) == [1, 2]
    return len(path), path[-1], complete, closed


def run(rows, cols, start, rule, order="12345678", seed=0, trial=0, retries=1):
    """Outcome of one run as a dict: visited, end, complete, closed, attempts, order
    (the tie order used: the rule's, or random-order's last draw; None for random and
    squirrel-cull), ties (residual tie points of the last attempt) and path."""
    if rule not in RULES:
        raise ValueError(rule)
    if rule == "random-order":
        for attempt in range(retries):
            rank, _ = below(stream_key(seed, rows, cols, start, trial, attempt), 0, 40320)
            path, ties, _ = walk(rows, cols, start, "fixed", ORDER_STRINGS[rank])
            if len(path) == rows * cols:
                break
        used, attempts = ORDER_STRINGS[rank], attempt + 1
    else:
        key = stream_key(seed, rows, cols, start, trial)
        path, ties, _ = walk(rows, cols, start, rule, order, key)
        used = order if rule in ORDER_RULES else None
        attempts = 1
    visited, end, complete, closed = outcome(rows, cols, path)
    return dict(
        visited=visited, end=end, complete=complete, closed=closed, attempts=attempts, order=used, ties=ties, path=path
    )
