"""Offline retrieval evaluation: compare two recorded runs against a frozen labelled corpus.

The CLI (``graphrag eval``) lives in :mod:`graphrag.cli.evaluation`; the library
modules hold one idea each (contract, spans, metrics, bootstrap, calibration, gates, report,
annotation) so each rule of the evaluation protocol can be read and tested on its own.
"""
