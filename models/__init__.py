"""Trained models, each in ``models/<name>/`` with its weights, config, metrics and model card.

Training recipes run as ``python -m models.<name>.{make_dataset,train,evaluate}`` and need the
``train`` extra; inference code lives in ``vision`` and never imports the training stack.
"""
