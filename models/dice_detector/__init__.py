"""Stage 1 of the dice reader: a YOLO detector that finds every die (one class) in a frame.

Recipe: ``python -m models.dice_detector.make_dataset``, ``.train``, ``.evaluate`` (the ``train``
environment, ``make train-env``). The shipped artefacts (ONNX weights, config, metrics, model card)
sit in this folder; inference lives in ``vision.detect`` and needs only onnxruntime.
"""
