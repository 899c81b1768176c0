"""The ``networkx.backend_info`` entry point: the backend's metadata, its default config and
a line of docs per implemented function (NetworkX shows them in its own docs)."""

from __future__ import annotations

from ._functions import FUNCTIONS
from ._registry import BACKEND_NAME

_ADDITIONAL_PARAMETERS = {
    'device : {"auto", "cpu", "cuda"}, optional': (
        "Where apsp_lab solves; default nx.config.backends.apsp_lab.device ('auto')."
    ),
}


def get_info():
    """The backend_info entry point: metadata, default config and function docs."""
    return {
        "backend_name": BACKEND_NAME,
        "project": "apsp_lab",
        "package": "apsp_lab",
        "short_summary": (
            "All-pairs shortest path lengths from one dense solve (CPU or CUDA GPU)."
        ),
        "default_config": {"device": "auto", "max_matrix_bytes": None},
        "functions": {
            name: {
                "additional_docs": implemented.doc,
                "additional_parameters": dict(_ADDITIONAL_PARAMETERS),
            }
            for name, implemented in FUNCTIONS.items()
        },
    }
