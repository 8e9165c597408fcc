"""The workflow's jobs, one module per stage: each stage's final outputs, its rules'
parameters, inputs and resources, as mixins that :class:`knight.pipeline.plan.Plan`
combines (the paths are the stages' own ``paths`` modules, :mod:`knight.pipeline.paths`)."""
