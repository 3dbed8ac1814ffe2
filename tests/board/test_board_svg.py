"""The board picture (docs/i18n.md): an SVG of a player's view, and its PNG for emails.

The pictures these tests draw are saved under test-artifacts/board/ for a person to look at.
"""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ET
from io import BytesIO

import pytest
from PIL import Image

from games import engine
from games.board import NotAPlayerView, board_size, render_board, render_board_png, style
from games.engine.data import TILES
from games.engine.simulation import play_random_game
from games.words import board_names
from tests.board.support import ARTIFACTS, SIEGE, save, view_of

NS = {"svg": "http://www.w3.org/2000/svg"}


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def polis(root: ET.Element, space: str) -> ET.Element:
    (found,) = [g for g in root.iter(f"{{{NS['svg']}}}g") if g.get("data-space") == space]
    return found


def find_all(node: ET.Element, cls: str) -> list[ET.Element]:
    return [e for e in node.iter() if cls in (e.get("class") or "").split()]


def texts(node: ET.Element) -> list[str]:
    return ["".join(e.itertext()) for e in node.iter(f"{{{NS['svg']}}}text")]


def title(node: ET.Element) -> str:
    return node.find("svg:title", NS).text or ""


def test_h_board_the_nine_by_nine_grid_with_its_coordinates() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    spaces = [e.get("data-space") for e in root.iter() if e.get("data-space")]
    assert len(spaces) == 81 == len(set(spaces))
    assert len(find_all(root, "polis")) == len(SIEGE["board"])
    grid = find_all(root, "grid")[0]
    edge_labels = [t for t in texts(grid) if len(t) == 1]
    assert edge_labels == list("ABCDEFGHI") + [str(n) for n in range(1, 10)]
    assert "F6" in texts(polis(root, "F6"))  # an empty space is named faintly


def test_s_fac_each_owner_by_colour_and_by_a_mark_of_its_own_shape_and_pattern() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    shapes = set()
    for space, faction in (("C3", "athens"), ("G3", "sparta"), ("C7", "corinth"), ("G7", "thebes")):
        g = polis(root, space)
        fs = style.FACTION_STYLES[faction]
        assert f"owner-{faction}" in g.get("class").split()
        assert find_all(g, "tile")[0].get("fill") == fs.fill
        (mark,) = find_all(g, "mark")
        shape = mark[0]
        shapes.add((shape.tag, shape.get("points", "").count(" ")))
        assert texts(mark) == [str(board_names.FACTION_INITIALS[faction])]
        patterned = [r for r in g.iter() if (r.get("fill") or "").startswith("url(#board-pattern-")]
        assert bool(patterned) == (fs.pattern != "none")
    assert len(shapes) == 4  # circle, square, triangle, diamond: never colour alone
    assert {p.get("id") for p in root.iter(f"{{{NS['svg']}}}pattern")} == {
        "board-pattern-athens",
        "board-pattern-corinth",
        "board-pattern-thebes",
    }


def test_s_fac_text_on_every_faction_tile_has_enough_contrast() -> None:
    def luminance(colour: str) -> float:
        channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    for fs in [*style.FACTION_STYLES.values(), style.NEUTRAL]:
        light, dark = sorted((luminance(fs.fill), luminance(fs.ink)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, fs


def test_s_fort_each_fortification_shows_its_lost_hp_in_red() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    forts = find_all(polis(root, "D4"), "fortification")
    assert [f.get("data-hp") for f in forts] == ["3", "1"]
    assert [len(find_all(f, "damage")) for f in forts] == [0, 2]
    assert find_all(forts[1], "damage")[0].get("stroke") == style.DAMAGE
    assert "a Fortification with 1 of 3 HP" in title(polis(root, "D4"))
    corinth = polis(root, "C7")  # four Fortifications: two drawn, "+2" for the rest
    assert len(find_all(corinth, "fortification")) == 2
    assert "+2" in texts(find_all(corinth, "fortifications")[0])


def test_h_heroes_stacked_units_show_phalanxes_king_navigators_and_builders() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    athens, corinth, megara = polis(root, "C3"), polis(root, "C7"), polis(root, "D4")
    assert texts(find_all(athens, "phalanxes")[0]) == ["4"]
    assert texts(find_all(megara, "phalanxes")[0]) == ["12"]
    assert len(find_all(athens, "king")) == 1 and not find_all(megara, "king")
    assert find_all(athens, "navigator")[0].get("data-count") == "2"
    assert find_all(corinth, "builder")[0].get("data-count") == "3"
    assert title(athens) == "C3 Athens, held by Athens: 4 phalanxes; the King; 2 Navigators"


def test_h_tiles_printed_resources_and_mint_design() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    megara = polis(root, "D4")
    printed = find_all(megara, "printed")[0]
    assert texts(printed) == ["1AP", "1FP", "1"]  # Megara prints 1 AP, 1 FP, 1 coin
    assert find_all(printed, "mint-pegasus")
    assert megara.find("svg:desc", NS).text == (
        "Pays 1 AP, 1 FP and 1 coin at income. A Mint of the Pegasus design."
    )
    assert find_all(polis(root, "C3"), "mint-owl")
    assert not find_all(polis(root, "G3"), "mint")  # Sparta is no Mint


def test_h_neutral_garrison_and_its_unminted_coins() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    delos = polis(root, "E5")
    assert "owner-neutral" in delos.get("class").split()
    assert not find_all(delos, "mark")
    assert texts(find_all(delos, "phalanxes")[0]) == ["1"]
    piles = {p.get("class").split()[1]: p.get("data-count") for p in find_all(delos, "unminted")}
    assert piles == {"unminted-pegasus": "1", "unminted-turtle": "2"}
    assert title(delos) == (
        "E5 Delos, neutral: a neutral garrison of 1 phalanx; unminted coins: 1 × Pegasus, 2 × Turtle"
    )


def test_s_exp_link_trade_links_join_their_two_poleis() -> None:
    root = parse(render_board(view_of(SIEGE), language="en"))
    links = sorted((g.get("data-from"), g.get("data-to")) for g in find_all(root, "trade-link"))
    assert links == [("B8", "C7"), ("C3", "D4"), ("G7", "H8")]
    assert title(find_all(root, "trade-link")[0]) == "Trade link B8–C7"


def test_h_screen_the_picture_never_depends_on_another_players_screen() -> None:
    richer = {**SIEGE, "players": {**SIEGE["players"], "sparta": {"fp": 4, "vp": 5, "coins_behind_screen": {
        "owl": 5, "turtle": 4}}}}  # fmt: skip
    svg = render_board(view_of(SIEGE), language="en")
    assert svg == render_board(view_of(richer), language="en")
    assert "screen" not in svg.lower()
    with pytest.raises(NotAPlayerView):
        render_board(engine.scenario(SIEGE).to_dict(), language="en")


def test_h_screen_a_finished_game_may_be_drawn_from_its_full_view() -> None:
    view = view_of({**SIEGE, "phase": "ended"})
    assert "deck" in view
    assert parse(render_board(view, language="en")).get("role") == "img"


def test_accessible_title_description_and_label() -> None:
    root = parse(render_board(view_of(SIEGE), language="de"))
    assert root.get("role") == "img" and root.get("lang") == "de"
    assert root.get("aria-label") == title(root) == "Das Brett im Jahr 427 v. Chr."
    assert root.find("svg:desc", NS).text == (
        "Athen hält 2 Poleis; Sparta hält 1 Polis; Korinth hält 2 Poleis; Theben hält 2 Poleis; "
        "2 neutrale Poleis; 3 Handelsstraßen."
    )
    for g in find_all(root, "polis"):
        assert title(g).startswith(g.get("data-space") + " ") and g.find("svg:desc", NS).text


def test_same_view_same_bytes_and_ids_prefixed() -> None:
    view = view_of(SIEGE)
    shuffled = {**view, "board": dict(reversed(view["board"].items()))}
    assert render_board(view, language="en") == render_board(shuffled, language="en")
    other = parse(render_board(view, language="en", id_prefix="turn-7"))
    assert all(e.get("id").startswith("turn-7-") for e in other.iter() if e.get("id"))


def test_names_are_escaped(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(board_names.TILE_NAMES, "megara", '<b>"Me&ga</b>')
    svg = render_board(view_of(SIEGE), language="en")
    assert "<b>" not in svg
    assert '<b>"Me&ga</b>' in texts(polis(parse(svg), "D4"))


def test_h_tiles_every_tile_has_a_translatable_name() -> None:
    assert set(board_names.TILE_NAMES) == set(TILES)
    assert {t: board_names.tile_name(t) for t in TILES} == {t: TILES[t].name for t in TILES}


def test_png_is_a_real_png_of_the_pictures_size() -> None:
    view = view_of(SIEGE)
    png = render_board_png(view, "en")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and png[12:16] == b"IHDR"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == board_size(view)
    image = Image.open(BytesIO(png)).convert("RGB")
    sparta_left, sparta_top = (
        style.MARGIN + 6 * style.CELL + style.GAP,
        style.MARGIN + 2 * style.CELL + style.GAP,
    )
    assert image.getpixel((sparta_left + 40, sparta_top + 24)) == (0x1B, 0x1B, 0x1B)  # Sparta's black tile
    assert image.getpixel((style.MARGIN + 515, style.MARGIN + 515)) == (0xCF, 0xE0, 0xEA)  # open sea at F6
    save("siege-athens.png", png)
    save("siege-athens.svg", render_board(view, language="en"))
    save("siege-athens@2x.png", render_board_png(view, "en", scale=2))
    assert Image.open(ARTIFACTS / "siege-athens@2x.png").size == (2 * width, 2 * height)


def test_h_board_every_moment_of_a_whole_game_draws() -> None:
    events, final = play_random_game(
        ["athens", "sparta", "corinth", "thebes"], "board-pictures", 3, check=False
    )
    moments = [len(events) // 4, len(events) // 2, 3 * len(events) // 4]
    for i, seen in enumerate(moments):
        state = engine.fold(events[:seen])
        view = engine.player_view(state, "thebes")
        root = parse(render_board(view, language="en"))
        assert len(find_all(root, "polis")) == len(state.board)
        save(f"game-moment-{i + 1}-thebes.png", render_board_png(view, "en"))
    final_root = parse(render_board(engine.player_view(final, None), language="en"))
    assert len(find_all(final_root, "polis")) == len(final.board)
