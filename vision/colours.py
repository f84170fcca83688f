"""Named die colours: the palette the renderer draws and the reader names.

The base box has red, blue, green, black and white dice; Las Vegas Boulevard adds yellow, grey and
violet; Royale and hobby dice add the rest. Colour values are BGR (OpenCV's order).
"""

from __future__ import annotations

import cv2
import numpy as np

__all__ = ["PALETTE", "PALETTE_NAMES", "ColourBook", "body_colour", "nearest_colour", "to_lab"]

PALETTE: dict[str, tuple[int, int, int]] = {
    "red": (40, 40, 200),
    "blue": (170, 80, 30),
    "green": (60, 150, 40),
    "black": (35, 35, 35),
    "white": (235, 235, 235),
    "yellow": (40, 210, 235),
    "grey": (140, 140, 140),
    "violet": (150, 50, 120),
    "orange": (30, 130, 240),
    "pink": (180, 120, 240),
    "brown": (40, 75, 120),
    "cyan": (210, 200, 60),
}
#: Palette names in a fixed order: the colour classes of the die reader.
PALETTE_NAMES: tuple[str, ...] = tuple(PALETTE)

_LAB = cv2.cvtColor(np.uint8([list(PALETTE.values())]), cv2.COLOR_BGR2LAB)[0].astype(np.float32)


def nearest_colour(bgr: tuple[int, int, int] | np.ndarray) -> str:
    """The palette name nearest to a BGR colour, measured in CIELAB."""
    lab = cv2.cvtColor(np.uint8([[np.clip(bgr, 0, 255)]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)
    return PALETTE_NAMES[int(np.argmin(np.linalg.norm(_LAB - lab, axis=1)))]


def body_colour(crop: np.ndarray) -> np.ndarray:
    """A die's body colour (BGR, float) from a crop centred on it: the median of the crop's middle.

    Pips cover well under half of a face, so the median ignores them. A stack of crops (N, H, W, 3)
    gives the N colours (N, 3) in one call.
    """
    h, w = crop.shape[-3:-1]
    middle = crop[
        ..., int(h * 0.3) : max(int(h * 0.7), int(h * 0.3) + 1), int(w * 0.3) : max(int(w * 0.7), int(w * 0.3) + 1), :
    ]
    pixels = middle.reshape(*crop.shape[:-3], -1, 3)
    return np.median(pixels, axis=-2).astype(np.float32)


def to_lab(bgr: np.ndarray) -> np.ndarray:
    """BGR colours (N, 3), 0..255, to CIELAB (N, 3) as OpenCV scales it (all channels 0..255)."""
    pixels = np.clip(np.asarray(bgr, dtype=np.float32).reshape(-1, 1, 3), 0, 255).astype(np.uint8)
    return cv2.cvtColor(pixels, cv2.COLOR_BGR2LAB).reshape(-1, 3).astype(np.float32)


LEARNED_SIGMA_LAB = 15.0
"""How far (CIELAB units) a die's body may lie from its colour as learned at setup for a 60 % weight (one sigma)."""

IN_PLAY_MASS = 0.02
"""The least colour-head probability, summed over the game's colours, of something boxed that is a die of the game.

Measured on rendered games (Las Vegas 2, 3 and 6 players, Royale basic and main; every 15th frame, 9,584 boxes
at the table's confidence): of the 9,119 boxes on a true die, the least sum was 0.08 (0.50 at the 0.1 %
quantile); of the 465 boxes on no die, 190 summed under 0.01, Royale's chips read as yellow or orange dice
(traced: a chip at casino 5's edge read as a green 1, restricted to the game's colours, seed 394)."""


PICTURE_SURE = 0.95
"""A die read at least this surely as one of the game's colours shows how that colour looks in its picture."""

PICTURE_UNSURE = 0.9
"""A die read less surely than this is decided with its picture's surely read dice too (:meth:`ColourBook.scores`)."""

PICTURE_SIGMA_LAB = 20.0
"""How far (CIELAB units) a die's body may lie from its colour as its picture's surely read dice show it (one sigma).

The three picture constants were chosen on 300 rendered tables (seeds 9,050,000-9,050,299, the die reader v8),
apart from the held-out ones: colour among the colours in play 99.52 % against 99.02 % with the head alone (17
dice wrong against 35), on a plateau (sure 0.9-0.98, at least 2-3 such dice, sigma 15-25 all gave 99.4-99.6 %)."""


def _nearness(lab: np.ndarray, known: dict[int, np.ndarray], columns: int, sigma: float) -> np.ndarray:
    """Each body's (N, 3 CIELAB) weight for each of ``columns`` colours (N, columns).

    A Gaussian of ``sigma`` of its distance to the colours ``known`` (column -> CIELAB); a colour not known
    weighs as one sigma.
    """
    weights = np.full((len(lab), columns), np.exp(-0.5))
    for k, colour in known.items():
        weights[:, k] = np.exp(-((lab - colour) ** 2).sum(axis=1) / (2 * sigma**2)) + 1e-12
    return weights


class ColourBook:
    """The game's dice colours as seen by this camera under this light, learned from the dice themselves.

    At setup each player shows their dice ("show me your dice"): :meth:`learn` keeps the mean CIELAB
    colour of their bodies. A die is then the nearest learned colour. Nothing about hues is assumed,
    so any dice set and any lighting work. Until a colour is learned it falls back to its palette value.

    Example:
        >>> book = ColourBook(["red", "blue", "white"])
        >>> book.learn("red", [(60, 60, 150), (55, 65, 160)])  # dim red dice under warm light
        >>> book.classify(np.array([[58, 62, 155], [150, 90, 40]]))
        ['red', 'blue']
    """

    def __init__(self, names: list[str] | tuple[str, ...]) -> None:
        self.names = list(names)
        self.prototypes = {name: to_lab(np.array(PALETTE.get(name, PALETTE["grey"])))[0] for name in self.names}
        self.learned: set[str] = set()

    def learn(self, name: str, samples_bgr: object) -> None:
        """Sets ``name``'s colour from body colours (BGR) of that player's dice.

        Raises:
            ValueError: for a colour not in this game or no samples.
        """
        if name not in self.prototypes:
            raise ValueError(f"{name} is not one of this game's colours ({', '.join(self.names)})")
        samples = np.asarray(samples_bgr, dtype=np.float32).reshape(-1, 3)
        if not len(samples):
            raise ValueError(f"no {name} dice were seen to learn their colour from")
        self.prototypes[name] = to_lab(samples).mean(axis=0)
        self.learned.add(name)

    def classify(self, bgr: np.ndarray) -> list[str]:
        """The nearest game colour of each body colour (N, 3) BGR."""
        if not len(bgr):
            return []
        lab = to_lab(bgr)
        table = np.stack([self.prototypes[n] for n in self.names])
        return [self.names[i] for i in np.linalg.norm(lab[:, None, :] - table[None], axis=2).argmin(axis=1)]

    def scores(self, head: np.ndarray | None = None, bodies: np.ndarray | None = None) -> np.ndarray:
        """Each die's probability of being each of the game's colours (N, len(names)): the one colour decision.

        ``head`` (N, len(PALETTE_NAMES)) are the die reader's colour probabilities over the palette; they
        are restricted to the game's colours and renormalised (a die on this table is one of them). Where
        colours were learned at setup ("show me your dice") and ``bodies`` (N, 3) BGR are given, each
        colour's probability is also weighted by how near the die's body is to that colour as this camera
        saw it (a Gaussian of :data:`LEARNED_SIGMA_LAB` in CIELAB; unlearned colours weigh the same).
        Without ``head`` the learned (or palette) colours alone decide: the nearest one gets probability 1.

        With ``head`` and ``bodies``, the dice of the same picture teach each other too: a colour that at
        least two dice are read as surely (:data:`PICTURE_SURE`) is known by the mean of their bodies, as
        this picture's light shows it, and a die read less surely (:data:`PICTURE_UNSURE`) is weighed by how
        near its body lies to each colour so known (a Gaussian of :data:`PICTURE_SIGMA_LAB`; a colour no die
        shows surely weighs as one sigma). A black die tinted by green cloth is told from the green dice
        beside it, a dim white die from the black ones. On 150 held-out rendered tables (seeds
        9,000,000-9,000,149, the die reader v8, its colours in play) 99.54 % of 1,977 dice were read
        right against 99.24 % by the head alone.

        Measured on rendered games of the nine benchmark tables (one round each, the dice at rest, games
        not benchmarked): the head restricted to the game's colours read 100 % of 9,846 dice right, the
        nearest palette colour of the body 98.5 % (black read blue at a 6-player table, 104 of 2,265 dice;
        white read blue or green beside neutral dice); on a black-and-white table it read 37 of 303 white
        dice black, the head none.
        """
        rows = len(head) if head is not None else len(bodies) if bodies is not None else 0
        if head is None:
            out = np.zeros((rows, len(self.names)), np.float32)
            if rows:
                out[np.arange(rows), [self.names.index(n) for n in self.classify(np.asarray(bodies))]] = 1
            return out
        columns = [PALETTE_NAMES.index(n) if n in PALETTE_NAMES else -1 for n in self.names]
        head = np.asarray(head, np.float64).reshape(rows, -1)
        out = np.stack([head[:, c] if c >= 0 else np.full(rows, 1e-6) for c in columns], axis=1) + 1e-9
        lab = to_lab(np.asarray(bodies)) if bodies is not None and rows else None
        if self.learned and lab is not None:
            known = {k: self.prototypes[name] for k, name in enumerate(self.names) if name in self.learned}
            out *= _nearness(lab, known, len(self.names), LEARNED_SIGMA_LAB)
        out /= out.sum(axis=1, keepdims=True)
        if lab is not None:
            out = self._by_picture(out, lab)
        return out.astype(np.float32)

    def _by_picture(self, scores: np.ndarray, lab: np.ndarray) -> np.ndarray:
        """``scores`` of the dice read unsurely, weighed by their picture's surely read dice (see :meth:`scores`)."""
        unsure = scores.max(axis=1) < PICTURE_UNSURE
        if not unsure.any():
            return scores
        sure = scores >= PICTURE_SURE
        known = {k: lab[sure[:, k]].mean(axis=0) for k in range(len(self.names)) if sure[:, k].sum() >= 2}
        out = scores.copy()
        out[unsure] *= _nearness(lab[unsure], known, len(self.names), PICTURE_SIGMA_LAB)
        out[unsure] /= out[unsure].sum(axis=1, keepdims=True)
        return out

    def of_the_game(self, head: np.ndarray, bodies: np.ndarray | None = None) -> np.ndarray:
        """Which boxed things may be dice of this game (N,) bool.

        The head gives the game's colours together at least :data:`IN_PLAY_MASS` (else it reads a thing of
        another colour: a chip, a die not in play), or the body lies within two :data:`LEARNED_SIGMA_LAB` of a
        colour learned at setup (what the camera saw of the players' own dice outweighs a head that never saw
        them).
        """
        head = np.asarray(head, np.float64).reshape(len(head), -1)
        columns = [PALETTE_NAMES.index(n) for n in self.names if n in PALETTE_NAMES]
        keep = head[:, columns].sum(axis=1) >= IN_PLAY_MASS
        if self.learned and bodies is not None and len(head):
            lab = to_lab(np.asarray(bodies))
            for name in self.learned:
                keep |= np.sqrt(((lab - self.prototypes[name]) ** 2).sum(axis=1)) < 2 * LEARNED_SIGMA_LAB
        return keep

    def decide(self, head: np.ndarray | None = None, bodies: np.ndarray | None = None) -> list[str]:
        """The most probable game colour of each die (see :meth:`scores`)."""
        scores = self.scores(head, bodies)
        return [self.names[i] for i in scores.argmax(axis=1)] if len(scores) else []

    def to_json(self) -> dict[str, list[float]]:
        """The learned colours (CIELAB), for the calibration file."""
        return {name: [round(float(v), 2) for v in self.prototypes[name]] for name in sorted(self.learned)}

    def load_json(self, obj: object) -> None:
        """Restores colours saved by :meth:`to_json` (colours not in this game are ignored).

        Raises:
            ValueError: for a malformed entry.
        """
        if not isinstance(obj, dict):
            raise ValueError("learned colours must be a JSON object of name -> [L, a, b]")
        for name, lab in obj.items():
            values = np.asarray(lab, dtype=np.float32)
            if values.shape != (3,):
                raise ValueError(f"learned colour {name!r} must be three numbers (L, a, b)")
            if name in self.prototypes:
                self.prototypes[name] = values
                self.learned.add(name)
