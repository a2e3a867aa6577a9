"""Loader: built-ins, extends, safety of paths, options."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from cardrules.cards import Suit, card
from cardrules.dsl import builtin_dir, builtin_names, format, load, load_text, parse_override
from cardrules.dsl.limits import MAX_EXTENDS_DEPTH
from cardrules.errors import VariantError
from cardrules.rules import BidStyle, FirstLead, Mode, Pattern, TrumpKind

REPO = Path(__file__).resolve().parent.parent


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


# ---------------------------------------------------------------- built-ins


def test_builtin_dir_is_found_without_installing():
    d = builtin_dir()
    assert d.is_dir()
    assert (d / "oh-hell.cardrules").is_file()
    assert {"oh-hell", "kachuful", "kazhutha"} <= set(builtin_names())
    assert builtin_names() == sorted(builtin_names())


def test_builtin_dir_in_a_checkout_is_the_repo_variants_folder():
    if (REPO / "cardrules" / "_variants").is_dir():  # pragma: no cover - installed layout
        pytest.skip("running from an installed wheel")
    assert builtin_dir() == REPO / "variants"


@pytest.mark.parametrize("name", ["oh-hell", "kachuful", "kazhutha"])
def test_builtin_game_names_match_file_names(name):
    assert load(name).name == name


def test_kachuful():
    v = load("kachuful")
    assert len(v.hand_sizes(4)) == 19
    assert v.hand_sizes(4)[:3] == (10, 9, 8)
    assert v.hand_sizes(6)[0] == 8 and v.hand_sizes(7)[0] == 7
    assert v.trumps.cycle == (Suit.SPADES, Suit.DIAMONDS, Suit.CLUBS, Suit.HEARTS)
    assert v.bidding.hook is True
    f = v.scoring.formula
    assert f is not None and f.text == "if exact then 10 + bid else 0"


def test_oh_hell():
    v = load("oh-hell")
    assert v.trumps.kind is TrumpKind.TURN_UP
    assert v.schedule.pattern is Pattern.DOWN_UP
    assert v.bidding.style is BidStyle.IN_TURN and v.bidding.hook is True
    f = v.scoring.formula
    assert f is not None and f.uses() == {"tricks", "exact"}


def test_kazhutha():
    v = load("kazhutha")
    assert v.mode is Mode.SHEDDING
    assert (v.players.min, v.players.max) == (3, 8)
    assert v.schedule.pattern is Pattern.WHOLE_PACK
    assert v.trumps.kind is TrumpKind.NONE
    assert v.bidding.style is BidStyle.NONE and not v.has_bidding
    assert v.play.lead_card == card("A♠") and v.play.first_lead is FirstLead.CARD
    assert v.match.word == "KAZHUTHA"
    assert v.direction.value == "anticlockwise"


# ---------------------------------------------------------------- extends


def test_child_overrides_only_what_it_states():
    parent = load("oh-hell")
    child = load("oh-hell-no-hook")
    assert child.parent == "oh-hell"
    assert child.bidding.hook is False
    assert (
        child.evolve(
            bidding=parent.bidding,
            name=parent.name,
            title=parent.title,
            summary=parent.summary,
            aliases=parent.aliases,
            parent=None,
        )
        == parent
    )


def test_identity_is_not_inherited(tmp_path):
    v = load_text("game: mine\nextends: oh-hell\n")
    assert (v.title, v.summary, v.aliases) == ("", "", ())
    assert v.options == load("oh-hell").options


def test_inherited_positions_point_into_the_parent():
    v = load("donkey")
    assert v.position("match word").path.endswith("donkey.cardrules")
    pos = v.position("players")
    assert pos is not None and pos.path.endswith("kazhutha.cardrules")


def test_extends_a_file_in_the_search_folder(tmp_path):
    write(tmp_path, "base.cardrules", "game: base\nextends: kachuful\nhook: no\n")
    child = write(
        tmp_path, "child.cardrules", 'game: child\nextends: "base.cardrules"\ntrumps: hearts\n'
    )
    v = load(child)
    assert (v.parent, v.bidding.hook, v.trumps.suit) == ("base", False, Suit.HEARTS)
    v = load("child", search=[tmp_path])
    assert v.name == "child"
    v = load_text('game: t\nextends: "base.cardrules"\n', search=tmp_path)
    assert v.parent == "base"


def test_search_folder_shadows_builtins(tmp_path):
    write(tmp_path, "oh-hell.cardrules", 'game: oh-hell\nextends: kachuful\ntitle: "Mine"\n')
    assert load("oh-hell", search=[tmp_path]).title == "Mine"
    assert load("oh-hell").title == "Oh Hell"


def test_extends_cycle(tmp_path):
    write(tmp_path, "a.cardrules", "game: a\nextends: b\n")
    write(tmp_path, "b.cardrules", "game: b\nextends: a\n")
    with pytest.raises(VariantError) as info:
        load("a", search=[tmp_path])
    assert info.value.message == "the variants extend one another in a circle: a -> b -> a"
    write(tmp_path, "self.cardrules", "game: self\nextends: self\n")
    with pytest.raises(VariantError, match="in a circle: self -> self"):
        load("self", search=[tmp_path])


def test_extends_depth_limit(tmp_path):
    write(tmp_path, "v0.cardrules", "game: v0\nextends: oh-hell\n")
    for i in range(1, MAX_EXTENDS_DEPTH + 2):
        write(tmp_path, f"v{i}.cardrules", f"game: v{i}\nextends: v{i - 1}\n")
    assert load(f"v{MAX_EXTENDS_DEPTH - 2}", search=tmp_path).parent == f"v{MAX_EXTENDS_DEPTH - 3}"
    with pytest.raises(VariantError, match="too many files extend one another"):
        load(f"v{MAX_EXTENDS_DEPTH + 1}", search=tmp_path)


@pytest.mark.parametrize(
    "target",
    ['"../../etc/passwd"', '"/etc/passwd"', '"~/x.cardrules"', '"../outside.cardrules"'],
)
def test_extends_outside_the_folders(tmp_path, target):
    inner = tmp_path / "inner"
    inner.mkdir()
    write(tmp_path, "outside.cardrules", "game: outside\nextends: oh-hell\n")
    child = write(inner, "child.cardrules", f"game: child\nextends: {target}\n")
    with pytest.raises(VariantError) as info:
        load(child)
    assert info.value.line == 2
    assert "outside the folders" in info.value.message or "absolute path" in info.value.message


def test_extends_unquoted_path_is_a_syntax_error():
    with pytest.raises(VariantError) as info:
        load_text("game: x\nextends: ../../etc/passwd\n")
    assert info.value.column == 10


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symlinks")
def test_symlink_out_of_the_folder_is_refused(tmp_path):
    inner = tmp_path / "inner"
    inner.mkdir()
    secret = write(tmp_path, "secret.cardrules", "game: secret\nextends: oh-hell\n")
    (inner / "secret.cardrules").symlink_to(secret)
    write(inner, "child.cardrules", 'game: child\nextends: "secret.cardrules"\n')
    with pytest.raises(VariantError, match="outside the folders"):
        load("child", search=[inner])
    with pytest.raises(VariantError, match="no variant called 'secret'"):
        load("secret", search=[inner])


def test_path_outside_explicit_search_is_refused(tmp_path):
    f = write(tmp_path, "x.cardrules", "game: x\nextends: oh-hell\n")
    other = tmp_path / "other"
    other.mkdir()
    with pytest.raises(VariantError, match="outside the folders"):
        load(f, search=[other])
    with pytest.raises(VariantError, match="outside the folders"):
        load(str(other / ".." / "x.cardrules"), search=[other])


def test_non_regular_file_refused(tmp_path):
    (tmp_path / "d.cardrules").mkdir()
    with pytest.raises(VariantError, match="not a regular file"):
        load(tmp_path / "d.cardrules")


def test_catalog_file_must_name_itself(tmp_path):
    write(tmp_path, "good.cardrules", "game: wrong\nextends: oh-hell\n")
    with pytest.raises(VariantError) as info:
        load("good", search=tmp_path)
    assert (
        info.value.expected == "`game: good`: a variant file's game name must match its file name"
    )


# ---------------------------------------------------------------- options


def test_options_override():
    v = load("oh-hell", hook=False, hand_size=7)
    assert v.bidding.hook is False
    assert v.schedule.start.start_for(3) == 7 and v.schedule.start.start_for(7) == 7
    assert v.position("hook").path == "<option hook>"


def test_option_values_of_every_type():
    assert load("kachuful", trumps=Suit.HEARTS).trumps.suit is Suit.HEARTS
    assert load("kachuful", trumps="cycle laal, kali").trumps.cycle == (Suit.HEARTS, Suit.SPADES)
    assert load("kachuful", forehead_hands=[1]).bidding.forehead_sizes == (1,)
    assert load("kachuful", blind_bids=True).bidding.blind is True
    assert (
        load("kazhutha", first_lead="holder of A♠ leads any spade").play.first_lead
        is FirstLead.SUIT
    )
    assert load("kachuful", **{"hand size": "largest, at most 8"}).schedule.start.cap == 8
    assert load("kachuful", overrides={"hook": "off"}).bidding.hook is False


def test_option_semantic_errors_apply():
    with pytest.raises(VariantError) as info:
        load("oh-hell", hand_size=13)
    e = info.value
    assert e.path == "<option hand size>"
    assert e.message == "13 cards each for 5 players needs 65 cards; the pack has 52"


def test_option_cannot_smuggle_a_second_setting():
    with pytest.raises(VariantError, match="must be on one line"):
        load("oh-hell", hook="no\nplayers: 2")


def test_parse_override():
    assert parse_override("hook=off") == ("hook", "off")
    assert parse_override("hand size = 7") == ("hand_size", "7")
    assert parse_override("score=if bid = tricks then 10 else 0") == (
        "score",
        "if bid = tricks then 10 else 0",
    )
    with pytest.raises(VariantError, match="NAME=VALUE"):
        parse_override("hook")
    with pytest.raises(VariantError, match="has no name"):
        parse_override("=3")


def test_formatted_resolved_variant_reloads_the_same():
    for name in builtin_names():
        v = load(name)
        assert load_text(format(v), path=f"<{name}>") == v


def test_builtin_file_must_name_itself_even_by_path(tmp_path, monkeypatch):
    import cardrules.dsl.loader as loader

    write(tmp_path, "mine.cardrules", "game: other\nextends: oh-hell\n")
    monkeypatch.setattr(loader, "builtin_dir", lambda: tmp_path)
    with pytest.raises(VariantError, match="a variant file's game name must match"):
        load(tmp_path / "mine.cardrules")


@pytest.mark.parametrize("target", ["../../etc/passwd", "/etc/passwd", "notes.txt"])
def test_load_refuses_a_path_that_is_not_a_variant_file(tmp_path, monkeypatch, target):
    """Without `search`, a path must be a .cardrules file: nothing else is opened,
    so a server passing on a user's "../../etc/passwd" leaks nothing."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "notes.txt").write_text("root:x:0:0:secret\n", encoding="utf-8")
    opened: list[str] = []
    real_open = open

    def spy(file, *args, **kwargs):
        opened.append(str(file))
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr("builtins.open", spy)
    with pytest.raises(VariantError) as info:
        load(target)
    assert info.value.message.endswith("is neither a built-in variant nor a variant file")
    assert "secret" not in str(info.value) and "root" not in str(info.value)
    assert not any(target.rsplit("/", 1)[-1] in f for f in opened)


def test_load_hints_the_name_for_a_misspelt_builtin():
    with pytest.raises(VariantError) as info:
        load("Oh-Hell")
    assert info.value.hint == "did you mean 'oh-hell'?"
    with pytest.raises(VariantError) as info:
        load("oh_hell")
    assert info.value.hint == "did you mean 'oh-hell'?"


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: load("oh-hell", search=5),
            "search must be a folder or a list of folders, not int",
        ),
        (lambda: load("oh-hell", search=[None]), "a search folder must be a path, not NoneType"),
        (
            lambda: load_text("game: x\n", search=[b"/tmp"]),
            "a search folder must be a path, not bytes",
        ),
        (lambda: load("oh-hell", overrides=5), "overrides must be a mapping, not int"),
        (lambda: load("oh-hell", overrides={5: 1}), "an option name must be text, not int"),
        (lambda: load("a\x00b.cardrules"), "the path 'a\\x00b.cardrules' holds a NUL character"),
    ],
)
def test_misused_arguments_raise_variant_error(call, message):
    """The loader's promise (nothing but VariantError) holds for odd arguments too."""
    with pytest.raises(VariantError) as info:
        call()
    assert info.value.message == message


def test_a_very_long_unknown_name_is_shortened():
    with pytest.raises(VariantError) as info:
        load("x" * 10_000)
    assert len(info.value.message) < 120
