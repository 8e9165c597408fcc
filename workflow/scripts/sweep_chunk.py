"""Snakemake script: compute one chunk of a board's sweep on Dask and write it."""

from knight.runtime.cluster import DaskSettings
from knight.runtime.logs import script_logging
from knight.sweep.chunks import run_chunk
from knight.sweep.driver import write_chunk
from knight.sweep.spec import SweepSpec

sm = snakemake
log = script_logging(sm)
spec = SweepSpec.from_config(sm.wildcards.board, sm.params)
chunk = int(sm.wildcards.chunk)
# Where the work runs is not a Snakemake rule parameter: it cannot change a row.
dask = DaskSettings.from_config(sm.config["dask"])
with dask.client(sm.threads) as client:
    result = run_chunk(spec, chunk, client=client)
write_chunk(result, sm.output[0])
log.info(
    "board %s chunk %d engine %s: %d runs, %d knight steps, %.3f s compute on %s",
    spec.board.name,
    chunk,
    spec.engine,
    result.table.num_rows,
    result.steps,
    result.seconds,
    dask.where(sm.threads),
)
