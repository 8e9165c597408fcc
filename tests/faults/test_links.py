"""``knight sweep --out OUT`` never writes or clears through a symbolic link: a board (or
rule) folder below OUT that is a link is refused before any computing, naming the link;
OUT itself may be a link (the folder the user named)."""

import os

import polars as pl
import pytest

import knight
from knight.cli import main as knight_main
from knight.core import dataset


@pytest.fixture()
def linked(tmp_path):
    """OUT/board=5x5 -> elsewhere/, which holds a part and a file of someone else's."""
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "part-0000.parquet").write_bytes(b"not ours")
    (elsewhere / "keep.txt").write_text("keep")
    out = tmp_path / "out"
    out.mkdir()
    (out / "board=5x5").symlink_to(elsewhere, target_is_directory=True)
    return out, elsewhere


def untouched(elsewhere):
    return sorted(p.name for p in elsewhere.iterdir()) == ["keep.txt", "part-0000.parquet"]


def test_the_command_refuses_a_linked_board_folder(linked, capsys, monkeypatch):
    out, elsewhere = linked
    import knight.sweep.driver

    def no_computing(*args, **kwargs):
        raise AssertionError("computed before refusing")

    monkeypatch.setattr(knight.sweep.driver, "iter_chunks", no_computing)
    assert knight_main(["sweep", "5", "--out", str(out), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"knight sweep: error: output folder {out / 'board=5x5'}: {out / 'board=5x5'} is a symbolic link "
        f"(to {elsewhere}); the writer never writes through a link: remove the link, or name the real folder\n"
    )
    assert untouched(elsewhere)


def test_the_api_and_the_dataset_writer_refuse_it_too(linked):
    out, elsewhere = linked
    with pytest.raises(ValueError, match=r"board=5x5 is a symbolic link \(to .*elsewhere\)"):
        knight.sweep.run(5, orders=["12345678"], out=out)
    with pytest.raises(dataset.DatasetError, match="is a symbolic link"):
        dataset.begin(out / "board=5x5")
    with pytest.raises(dataset.DatasetError, match="is a symbolic link"):
        with dataset.writing(out / "board=5x5"):
            pass
    assert untouched(elsewhere)


def test_a_linked_rule_folder_is_refused(tmp_path):
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "board=5x5").mkdir(parents=True)
    (elsewhere / "board=5x5" / "part-0000.parquet").write_bytes(b"not ours")
    out = tmp_path / "out"
    out.mkdir()
    (out / "rule=roth").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ValueError, match=r"rule=roth is a symbolic link"):
        knight.sweep.run(5, orders=["12345678"], rule="roth", out=out)
    assert (elsewhere / "board=5x5" / "part-0000.parquet").read_bytes() == b"not ours"


def test_a_linked_lock_file_is_refused(tmp_path):
    folder = tmp_path / "board=5x5"
    folder.mkdir()
    (folder / dataset.LOCK).symlink_to(tmp_path / "target")
    with pytest.raises(dataset.DatasetError, match=r"\.writer\.lock is a symbolic link; remove it"):
        with dataset.writing(folder):
            pass
    assert not (tmp_path / "target").exists()


def test_out_itself_may_be_a_link(tmp_path):
    real = tmp_path / "scratch"
    real.mkdir()
    out = tmp_path / "out"
    out.symlink_to(real, target_is_directory=True)
    assert knight_main(["sweep", "5", "--out", str(out), "--orders", "12345678", "--workers", "1"]) == 0
    assert dataset.scan(real).select(pl.len()).collect().item() == 25
    assert os.path.islink(out) and (real / "board=5x5" / dataset.MANIFEST).is_file()
