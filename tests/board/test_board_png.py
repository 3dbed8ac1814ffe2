"""The email's board picture (docs/operations.md): laid out from parts cairo drew once, it shows
what the page's SVG shows, and a worker draws only the parts it has not drawn before."""

from __future__ import annotations

import copy
from io import BytesIO
from typing import Any

import cairosvg
import pytest
from PIL import Image, ImageChops

from games import engine
from games.board import render_board, render_board_png, style
from games.board.palette import board_palette
from games.board.png import forget_pictures, png_bytes
from games.engine.simulation import play_random_game
from tests.board.support import SIEGE, save, view_of


def pixels(png: bytes) -> Image.Image:
    return Image.open(BytesIO(png)).convert("RGB")


def differences(view: dict[str, Any], language: str) -> tuple[float, int]:
    """(mean difference per channel, pixels off by more than 32 in a channel) between the picture
    and cairo's drawing of the whole SVG."""
    whole = pixels(cairosvg.svg2png(bytestring=render_board(view, language=language).encode()))
    laid_out = pixels(render_board_png(view, language))
    assert laid_out.size == whole.size
    diff = ImageChops.difference(laid_out, whole)
    channels = diff.split()
    mean = sum(sum(i * n for i, n in enumerate(c.histogram())) for c in channels) / (
        3 * diff.width * diff.height
    )
    far = sum(ImageChops.lighter(ImageChops.lighter(*channels[:2]), channels[2]).histogram()[33:])
    return mean, far


@pytest.fixture
def cairo_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every drawing cairo is asked for, from a process that has drawn nothing yet."""
    forget_pictures()
    calls: list[str] = []
    real = cairosvg.svg2png

    def counting(**kwargs: Any) -> bytes:
        calls.append(kwargs["bytestring"].decode())
        return real(**kwargs)

    monkeypatch.setattr(cairosvg, "svg2png", counting)
    return calls


def test_h_board_the_picture_shows_what_the_whole_svg_shows_at_every_moment_of_a_game() -> None:
    """The same tiles, pieces, links and key, pixel for pixel but for the palette's rounding of
    anti-aliased edges and the corners where a space's outline meets a neighbour's."""
    events, _ = play_random_game(["athens", "sparta", "corinth", "thebes"], "picture", 5, check=False)
    for i, seen in enumerate((len(events) // 5, len(events) // 2, len(events) - 1)):
        view = engine.player_view(engine.fold(events[:seen]), "corinth")
        for language in ("en", "de"):
            mean, far = differences(view, language)
            assert mean < 1.5, (seen, language, mean)
            assert far < 200, (seen, language, far)  # of a million pixels
        save(f"laid-out-moment-{i + 1}.png", render_board_png(view, "de"))


def test_s_fort_h_heroes_every_kind_of_piece_shows_as_in_the_svg() -> None:
    mean, far = differences(view_of(SIEGE), "en")
    assert mean < 1.5 and far < 200


def test_h_board_a_tile_on_the_edge_of_the_sea_keeps_the_border_whole() -> None:
    at_edge = {"players": {"athens": {}, "sparta": {}}, "board": {"A1": {"owner": "athens", "phalanxes": 2}}}
    picture = pixels(render_board_png(view_of(at_edge), "en"))
    frame = tuple(int(style.FRAME[i : i + 2], 16) for i in (1, 3, 5))
    for y in (style.MARGIN - 1, style.MARGIN):  # the border's two pixel rows above A1
        assert picture.getpixel((style.MARGIN + 50, y)) == frame
    for x in (style.MARGIN - 1, style.MARGIN):
        assert picture.getpixel((x, style.MARGIN + 50)) == frame


def test_a_picture_drawn_once_is_not_drawn_again_for_another_seat(cairo_calls: list[str]) -> None:
    """The board is public (H-SCREEN): a winter's emails to every player show one picture."""
    state = engine.scenario(SIEGE)
    first = render_board_png(engine.player_view(state, "athens"), "en")
    drawn = len(cairo_calls)
    assert render_board_png(engine.player_view(state, "sparta"), "en") == first
    assert len(cairo_calls) == drawn


def test_after_a_move_only_what_changed_is_drawn_by_cairo(cairo_calls: list[str]) -> None:
    view = view_of(SIEGE)
    render_board_png(view, "en")
    before = len(cairo_calls)
    moved = copy.deepcopy(view)
    moved["board"]["G3"]["phalanxes"] = 13  # Sparta's 16 phalanxes at G3: three march off
    render_board_png(moved, "en")
    (new,) = cairo_calls[before:]  # the number 13; the tile, the sea and the key are kept
    assert ">13</text>" in new
    render_board_png(view, "de")  # another language: the words, not the pieces, are drawn again
    german = cairo_calls[before + 1 :]
    assert any("Athen" in svg for svg in german)
    assert not any(">16</text>" in svg for svg in german)


def test_the_same_view_gives_the_same_bytes_whatever_was_drawn_before(cairo_calls: list[str]) -> None:
    view = view_of(SIEGE)
    first = render_board_png(view, "en")
    render_board_png(view_of(SIEGE, "sparta"), "de")
    forget_pictures()
    render_board_png(
        engine.player_view(engine.fold(play_random_game(["athens", "sparta"], "x", 1)[0][:40]), None), "en"
    )
    assert render_board_png(view, "en") == first


def test_png_bytes_writes_a_palette_png_pillow_reads_back() -> None:
    picture = Image.new("RGB", (37, 5), style.SEA).quantize(palette=board_palette())
    read = Image.open(BytesIO(png_bytes(picture)))
    assert read.format == "PNG" and read.mode == "P" and read.size == (37, 5)
    assert read.convert("RGB").getpixel((36, 4)) == (0xCF, 0xE0, 0xEA)


def test_s_fac_every_colour_the_svg_names_is_kept_exactly() -> None:
    """Faction colours and the sea are not rounded to a neighbouring colour of the palette."""
    from games.board.palette import named_colours

    for colour in named_colours():
        rgb = tuple(bytes.fromhex(colour[1:]))
        kept = Image.new("RGB", (1, 1), rgb).quantize(palette=board_palette(), dither=Image.Dither.NONE)
        assert kept.convert("RGB").getpixel((0, 0)) == rgb, colour


def test_threads_asking_for_one_new_picture_at_once_draw_it_once(cairo_calls: list[str]) -> None:
    """A worker's threads take a winter's emails to every player together: one draws."""
    from concurrent.futures import ThreadPoolExecutor

    alone = len(cairo_calls)
    render_board_png(view_of(SIEGE), "en")
    parts_of_one_picture = len(cairo_calls) - alone
    forget_pictures()
    cairo_calls.clear()
    with ThreadPoolExecutor(4) as pool:
        pictures = list(
            pool.map(lambda faction: render_board_png(view_of(SIEGE, faction), "en"), ["athens"] * 4)
        )
    assert len(set(pictures)) == 1
    assert len(cairo_calls) == parts_of_one_picture
