"""Pure array stages: crops, letterbox, NMS, Biggy by neighbours, the detection container."""

import numpy as np
import pytest

from vision.annotate import annotate
from vision.crops import CROP_SIZE, crop_die
from vision.detect import DiceDetector, biggy_by_size, box_iou, letterbox, nms, shrink
from vision.detections import Detections


def test_crop_is_centred_on_the_box_and_pads_outside_the_image():
    image = np.zeros((200, 300, 3), np.uint8)
    image[90:110, 140:160] = 255  # a 20 px white square centred at (150, 100)
    crop = crop_die(image, (140, 90, 160, 110), size=48, margin=0.25)  # side 30 px -> 48 px
    white = np.argwhere(crop[:, :, 0] > 127)
    assert np.allclose(white.mean(axis=0), [23.5, 23.5], atol=0.6)
    assert abs(len(white) - (20 * 48 / 30) ** 2) < 0.1 * (20 * 48 / 30) ** 2
    corner = crop_die(image, (-10, -10, 10, 10))  # the die reader's size by default
    assert corner.shape == (CROP_SIZE, CROP_SIZE, 3) and corner.max() == 0


def test_letterbox_keeps_aspect_and_maps_back():
    image = np.zeros((480, 640, 3), np.uint8)
    out, box = letterbox(image, 416)
    assert out.shape == (416, 416, 3)
    assert box.scale == pytest.approx(0.65) and box.pad_x == 0 and box.pad_y == 52
    assert (out[:52] == 114).all() and (out[52:364] == 0).all()


def test_shrinking_a_frame_averages_detail_finer_than_its_pixels_instead_of_aliasing_it():
    stripes = np.zeros((720, 1280, 3), np.uint8)
    stripes[:, ::2] = 255  # 1 px stripes: a third of a pixel at 416 wide
    out = shrink(stripes, (416, 234))
    assert out.shape == (234, 416, 3)
    assert abs(out.mean() - 127.5) < 2 and out.std() < 3  # even grey; point sampling gives stripes
    square = np.zeros((100, 100, 3), np.uint8)
    square[40:60, 40:60] = 255
    big = shrink(square, (200, 200))  # enlarging (a small photo) keeps the square where it was
    white = np.argwhere(big[:, :, 0] > 127)
    assert np.allclose(white.min(axis=0), [80, 80], atol=2) and np.allclose(white.max(axis=0), [119, 119], atol=2)


def test_nms_keeps_the_best_of_overlapping_boxes_only():
    boxes = np.array([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30], [9, 9, 19, 19]], float)
    scores = np.array([0.8, 0.9, 0.7, 0.6])
    assert nms(boxes, scores, 0.5).tolist() == [1, 2, 3]


def test_nms_drops_a_part_of_a_die_found_again_but_not_a_die_beside_it():
    die = [100, 100, 140, 150]  # a die, its top face found again, and a die touching it
    top, beside = [104, 100, 136, 122], [140, 104, 180, 150]
    boxes, scores = np.array([die, top, beside], float), np.array([0.9, 0.5, 0.8])
    assert nms(boxes, scores, 0.5).tolist() == [0, 2, 1]  # the top face overlaps the die too little for IoU
    assert nms(boxes, scores, 0.5, core=0.8).tolist() == [0, 2]


def test_nms_is_the_greedy_pass_one_box_at_a_time():
    """All pairs are compared at once; the result is the textbook greedy suppression, box by box."""

    def greedy(boxes, scores, iou, core):
        keep, order = [], list(np.argsort(-scores))
        while order:
            i, order = order[0], order[1:]
            keep.append(i)
            survivors = []
            for j in order:
                lt, rb = np.maximum(boxes[i, :2], boxes[j, :2]), np.minimum(boxes[i, 2:], boxes[j, 2:])
                inter = np.prod(np.clip(rb - lt, 0, None))
                union = np.prod(boxes[i, 2:] - boxes[i, :2]) + np.prod(boxes[j, 2:] - boxes[j, :2]) - inter
                centre_i, centre_j = (boxes[i, :2] + boxes[i, 2:]) / 2, (boxes[j, :2] + boxes[j, 2:]) / 2
                inside = np.all(np.abs(centre_j - centre_i) < core * (boxes[i, 2:] - boxes[i, :2]) / 2)
                if inter / union <= iou and not inside:
                    survivors.append(j)
            order = survivors
        return keep

    rng = np.random.default_rng(3)
    for _ in range(60):
        n = int(rng.integers(0, 30))
        corner = rng.uniform(0, 200, (n, 2))
        boxes = np.hstack([corner, corner + rng.uniform(5, 40, (n, 2))])
        scores = rng.uniform(0, 1, n)
        for iou, core in ((0.5, 0.0), (0.5, 0.8), (0.3, 0.5)):
            assert nms(boxes, scores, iou, core).tolist() == greedy(boxes, scores, iou, core)


def _grid(sides, spacing=60.0):
    centres = np.array([[i * spacing, 0.0] for i in range(len(sides))])
    half = np.array(sides, float)[:, None] / 2
    return Detections(np.hstack([centres - half, centres + half]), np.ones(len(sides)))


def test_box_iou_of_every_pair():
    a = np.array([[0, 0, 10, 10], [20, 20, 30, 30]], dtype=np.float32)
    b = np.array([[5, 0, 15, 10], [0, 0, 10, 10], [100, 100, 101, 101]], dtype=np.float32)
    assert np.allclose(box_iou(a, b), [[50 / 150, 1, 0], [0, 0, 0]])


class _Looks(DiceDetector):
    """The second-look rule on boxes given by input size, without a network (``_candidates`` answers)."""

    def __init__(self, looks: dict[int, list[tuple[list[float], float]]], second_look: int | None = 512) -> None:
        self.by_size, self.seen, self.looks = looks, [], None
        self.input_size, self.second_look, self.faces = 416, second_look, False
        self.confidence, self.iou, self.core = 0.35, 0.5, 0.8

    def _candidates(self, image, size):
        self.seen.append(size)
        return self._answer(self.by_size.get(size, []))

    @staticmethod
    def _answer(boxes: list[tuple[list[float], float]]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Boxes and scores given as ``(box, score)`` pairs, as ``_candidates`` returns them."""
        return (np.array([b for b, _ in boxes], np.float64).reshape(-1, 4), np.array([c for _, c in boxes]),
                np.zeros(len(boxes), np.int64))  # fmt: skip


def test_a_second_look_where_a_weak_box_lies_away_from_every_die_found():
    """A weak box (0.1-0.35) on no die found: looked at again at 512, the dice found there that overlap none
    of the first look's are added; those already found are kept as the first look boxed them."""
    first = [([10, 10, 50, 50], 0.9), ([100, 100, 130, 130], 0.2), ([12, 10, 50, 52], 0.3)]
    second = [([11, 11, 51, 51], 0.95), ([101, 99, 131, 129], 0.6), ([300, 300, 320, 320], 0.2)]
    looks = _Looks({416: first, 512: second})
    found = looks.find(np.zeros((640, 640, 3), np.uint8))
    assert looks.seen == [416, 512]
    assert found.xyxy.tolist() == [[10, 10, 50, 50], [101, 99, 131, 129]]
    assert np.allclose(found.confidence, [0.9, 0.6])
    # The weak box lies on the die found (a part of it again): no second look.
    looks = _Looks({416: [first[0], first[2]], 512: second})
    assert looks.find(np.zeros((640, 640, 3), np.uint8)).xyxy.tolist() == [[10, 10, 50, 50]]
    assert looks.seen == [416]
    # One look as the table's frames are read, and nothing found at all.
    looks = _Looks({416: first, 512: second}, second_look=None)
    assert len(looks.find(np.zeros((640, 640, 3), np.uint8))) == 1 and looks.seen == [416]
    looks = _Looks({416: [([100, 100, 130, 130], 0.2)], 512: [([300, 300, 320, 320], 0.2)]})
    assert len(looks.find(np.zeros((640, 640, 3), np.uint8))) == 0 and looks.seen == [416, 512]


class _Voters(_Looks):
    """Looks voting on dice, without a network: the boxes each look (input size, mirrored) answers, in its own
    picture's pixels (a mirrored look sees the photo mirrored; the photo's top-left pixel tells which)."""

    def __init__(self, answers: dict[tuple[int, bool], list[tuple[list[float], float]]]) -> None:
        super().__init__({}, second_look=None)
        self.answers, self.looks, self.vote = answers, tuple(answers), 0.3

    def _candidates(self, image, size):
        look = (size, not image[0, 0, 0])
        self.seen.append(look)
        return self._answer(self.answers[look])


def test_a_photo_s_looks_vote_on_each_die_and_keep_the_best_box():
    """Six looks: a die every look scores (0.9-0.95) is kept with the best look's box, mirrored looks' boxes
    turned back (x -> 640 - x); one that a single look scores 0.6 and the others not at all is dropped
    (0.1 a look), though one look alone would keep it; one that every look scores 0.32 is kept (one look's
    threshold, 0.35, would drop it); one at 0.28 everywhere is dropped."""
    looks = [(416, False), (416, True), (512, False), (512, True), (640, False), (640, True)]
    answers = {}
    for size, mirrored in looks:
        turn = (lambda b: [640 - b[2], b[1], 640 - b[0], b[3]]) if mirrored else (lambda b: b)
        best = 0.95 if (size, mirrored) == (512, True) else 0.9
        die = [10, 10, 50, 50] if best > 0.9 else [11, 10, 51, 50]
        answers[(size, mirrored)] = [(turn(die), best), (turn([300, 300, 330, 330]), 0.32),
                                     (turn([400, 300, 430, 330]), 0.28)]  # fmt: skip
    answers[(416, False)].append(([100, 100, 130, 130], 0.6))
    photo = np.zeros((480, 640, 3), np.uint8)
    photo[0, 0] = 255
    voters = _Voters(answers)
    found = voters.find(photo)
    assert sorted(voters.seen) == sorted(looks)
    assert found.xyxy.tolist() == [[10, 10, 50, 50], [300, 300, 330, 330]]
    assert np.allclose(found.confidence, [(5 * 0.9 + 0.95) / 6, 0.32])
    voters.vote = 0.35
    assert voters.find(photo).xyxy.tolist() == [[10, 10, 50, 50]]


@pytest.mark.parametrize(
    ("sides", "expected"),
    [
        ([20, 20, 30, 20, 20], [False, False, True, False, False]),
        ([20, 30], [False, True]),
        ([30], [False]),  # alone: cannot be judged
        ([20, 22, 19, 21], [False] * 4),
        ([30, 30, 20, 20], [True, True, False, False]),
    ],
)
def test_biggy_by_size(sides, expected):
    assert biggy_by_size(_grid(sides)).tolist() == expected


def test_biggy_follows_perspective():
    # Far dice are small and near dice large; a Biggy among the far ones is still found.
    far = _grid([14, 14, 21, 14])
    near = Detections(far.xyxy * 2 + [0, 400, 0, 400], far.confidence)
    both = Detections(np.vstack([far.xyxy, near.xyxy]), np.ones(8))
    assert biggy_by_size(both).tolist() == [False, False, True, False] * 2


def test_biggys_side_by_side_among_normal_dice():
    # Four Biggys on one casino (Royale gives every colour one), normal dice in a ring around them:
    # each Biggy's nearest dice are mostly Biggys, yet the six nearest still hold normal ones.
    ring = [(20 + 75 * np.cos(a), 20 + 75 * np.sin(a)) for a in np.linspace(0, 2 * np.pi, 8, endpoint=False)]
    centres = np.array([(0, 0), (40, 0), (0, 40), (40, 40), *ring])
    half = np.array([30] * 4 + [20] * 8, float)[:, None] / 2
    dice = Detections(np.hstack([centres - half, centres + half]), np.ones(12))
    assert biggy_by_size(dice).tolist() == [True] * 4 + [False] * 8
    assert not biggy_by_size(dice, neighbours=4).any()  # the four nearest: three Biggys and one normal die


def test_a_biggy_beside_the_only_normal_die_in_its_part_of_the_picture():
    # Measured on a held-out rendered table (seed 9,000,054): eleven normal dice and a Biggy in the upper
    # part of the picture, one normal die (19.3 px) and a Biggy (30.1 px) alone at the bottom. Fitted
    # over every die, a normal die's size grew so fast toward the bottom that the lower Biggy looked
    # normal and the normal die small beside it; fitted first over the dice not clearly larger than
    # most, both Biggys are told.
    centres = np.array([(210, 179), (370, 419), (162, 182), (397, 234), (330, 239), (530, 183), (168, 289),
                        (425, 411), (481, 118), (459, 211), (303, 270), (128, 210), (139, 180)], float)  # fmt: skip
    sizes = np.array([16.6, 19.3, 17.7, 18.4, 26.7, 17.7, 21.3, 30.1, 16.7, 17.7, 21.1, 18.9, 17.9])
    dice = Detections(np.hstack([centres - sizes[:, None] / 2, centres + sizes[:, None] / 2]), np.ones(13))
    assert np.flatnonzero(biggy_by_size(dice, sizes)).tolist() == [4, 7]


def test_biggy_on_a_table_seen_at_a_slant():
    # Rows of dice shrinking with distance (the inverse size is affine over the picture, as on a table
    # seen in perspective): a Biggy far away is smaller than the normal dice near the camera, and one
    # near them larger than a far Biggy; the size fitted over the whole table tells each.
    rows = [(y, 800.0 / (10 + y / 25)) for y in (0.0, 150.0, 300.0, 450.0)]  # (row y, a normal die's size)
    centres, sizes, truth = [], [], []
    for row, (y, normal) in enumerate(rows):
        for column in range(5):
            big = (row, column) in {(0, 1), (3, 3)}
            centres.append((column * 80.0, y))
            sizes.append(normal * (1.5 if big else 1.0) * (1 + 0.03 * ((row + column) % 3 - 1)))
            truth.append(big)
    centres_a, half = np.array(centres), np.array(sizes)[:, None] / 2
    table = Detections(np.hstack([centres_a - half, centres_a + half]), np.ones(len(sizes)))
    assert biggy_by_size(table).tolist() == truth
    # The reader's own size estimate, when given, is judged instead of the boxes' sides.
    turned = table.xyxy.copy()
    turned[2] = [turned[2, 0] - 15, turned[2, 1] - 15, turned[2, 2] + 15, turned[2, 3] + 15]  # a turned die's box
    assert biggy_by_size(Detections(turned, table.confidence))[2]
    assert biggy_by_size(Detections(turned, table.confidence), np.array(sizes)).tolist() == truth


def test_detections_container():
    d = Detections(np.array([[0, 0, 10, 20], [5, 5, 7, 7]]), np.array([0.9, 0.2]), {"pips": np.array([6, 1])})
    assert len(d) == 2 and len(Detections.empty()) == 0
    assert d[np.array([True, False])].data["pips"].tolist() == [6]
    assert d[1].xyxy.tolist() == [[5, 5, 7, 7]]
    assert d.sides.tolist() == pytest.approx([200**0.5, 2.0])
    with pytest.raises(ValueError, match="one value per box"):
        Detections(np.zeros((2, 4)), np.zeros(3))


def test_annotate_draws_without_touching_the_input():
    image = np.full((100, 100, 3), 90, np.uint8)
    d = Detections(
        np.array([[20, 30, 50, 60]]),
        np.array([0.9]),
        {"pips": np.array([4]), "colour": np.array(["red"], object), "biggy": np.array([True])},
    )
    out = annotate(image, d)
    assert (image == 90).all() and (out != 90).any()


def test_missing_or_broken_weights_are_clear_errors(tmp_path):
    import json

    from vision.detect import DiceDetector, ModelError

    with pytest.raises(ModelError, match="no trained model in"):
        DiceDetector(tmp_path / "dice_detector", tmp_path / "die_reader")
    for name, weights in (("dice_detector", "detector.onnx"), ("die_reader", "reader.onnx")):
        (tmp_path / name).mkdir()
        config = {"weights": weights, "input_size": 416, "input": {"size": 48, "margin": 0.15},
                  "outputs": {"colour": ["red"]}}  # fmt: skip
        (tmp_path / name / "config.json").write_text(json.dumps(config))
    with pytest.raises(ModelError, match="missing model weights"):
        DiceDetector(tmp_path / "dice_detector", tmp_path / "die_reader")
    (tmp_path / "dice_detector" / "detector.onnx").write_bytes(b"not an onnx model")
    with pytest.raises(ModelError, match="cannot load"):
        DiceDetector(tmp_path / "dice_detector", tmp_path / "die_reader")
    (tmp_path / "die_reader" / "config.json").write_text("{broken")
    with pytest.raises(ModelError, match="cannot read"):
        DiceDetector(tmp_path / "dice_detector", tmp_path / "die_reader")


def test_rectangular_letterbox_pads_only_to_the_stride():
    image = np.zeros((720, 1280, 3), np.uint8)
    out, box = letterbox(image, 416, rect=True)
    assert out.shape == (256, 416, 3)  # 416x234 content, padded to a multiple of 32
    assert box.scale == 416 / 1280 and box.pad_x == 0 and box.pad_y == 11
    square, _ = letterbox(np.zeros((640, 640, 3), np.uint8), 416, rect=True)
    assert square.shape == (416, 416, 3)
