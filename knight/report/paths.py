"""The files the workflow's figure and report jobs write, by name (as
:mod:`knight.sweep.paths`)."""

PATHS = {
    "figure_tour": "results/figures/tours/{tboard}_{row}-{col}_{order}.{ext}",
    "figure_tour.log": "results/logs/figures/tour_{tboard}_{row}-{col}_{order}.log",
    "figure_board": "results/figures/boards/{board}/{name}.{ext}",
    "figure_board.log": "results/logs/figures/board_{board}.log",
    "figure_rates": "results/figures/rates.{ext}",
    "figure_rates.log": "results/logs/figures/rates.log",
    "figure_runtime": "results/figures/runtime.{ext}",
    "figure_runtime.log": "results/logs/figures/runtime.log",
    "figure_order_images": "results/figures/symmetry/{iboard}_{order}.{ext}",
    "figure_order_images.log": "results/logs/figures/symmetry_{iboard}_{order}.log",
    "thesis_tables": "results/thesis/{board}/{table}.{ext}",
    "thesis_tables.log": "results/logs/figures/thesis_{board}.log",
    "report_completion": "results/report/tables/completion.html",
    "report_completion.log": "results/logs/figures/completion_html.log",
    "report_queens": "results/figures/queens/speedup.png",
    "report_queens.log": "results/logs/figures/queens_speedup.log",
}
