"""What NetworkX's dispatcher calls: conversion to and from the backend graph, and
whether a call runs here (``can_run``: would the answer be NetworkX's exactly;
``should_run``: is it worth it) or in NetworkX. Every function of the registry is an
attribute of :class:`BackendInterface`."""

from __future__ import annotations

import numbers
import os

from . import _cache
from ._functions import FUNCTIONS
from ._graph import ApspGraph, convert
from ._registry import BACKEND_NAME
from ._solve import weights_for


def _bind(name, args, kwargs):
    params = FUNCTIONS[name].params
    out = {}
    for pos, (pname, default) in enumerate(params):
        if pos < len(args):
            out[pname] = args[pos]
        else:
            out[pname] = kwargs.get(pname, default)
    return out


def _weight_reason(weight):
    if weight is None:
        return None
    if callable(weight):
        return "callable weight (only edge attribute names are supported)"
    try:
        hash(weight)
    except TypeError:
        return f"unhashable weight {weight!r}"
    return None


def _cutoff_reason(cutoff):
    if cutoff is None:
        return None
    if isinstance(cutoff, numbers.Real):
        return None
    return f"cutoff of type {type(cutoff).__name__} (only real numbers are supported)"


def _function_check(implemented, bound, G, w):
    """True, or why the function's own check (the registry's ``check``) sends the call to
    NetworkX."""
    if implemented.check is None:
        return True
    reason = implemented.check(bound, G, w)
    return True if reason is None else reason


def _physical_memory():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return None


def _with_functions(cls):
    """cls with every registered function as a static method of its name."""
    for name, implemented in FUNCTIONS.items():
        setattr(cls, name, staticmethod(implemented.func))
    return cls


@_with_functions
class BackendInterface:
    """What NetworkX's dispatcher calls (``backend_interface`` is its one instance); the
    implemented functions are added from the registry by ``_with_functions``."""

    @staticmethod
    def convert_from_nx(
        graph,
        *,
        edge_attrs=None,
        node_attrs=None,
        preserve_edge_attrs=False,
        preserve_node_attrs=False,
        preserve_graph_attrs=False,
        name=None,
        graph_name=None,
    ):
        import networkx as nx

        if isinstance(graph, ApspGraph):
            return graph
        if not isinstance(graph, nx.Graph):
            raise TypeError(f"Bad type for graph argument {graph_name} in {name}: {type(graph)}")
        if edge_attrs:
            attrs = tuple(edge_attrs)
            defaults = set(edge_attrs.values())
            default = defaults.pop() if len(defaults) == 1 else None
            if default is None or not isinstance(default, numbers.Real):
                raise NotImplementedError(
                    f"edge attribute defaults {edge_attrs!r} are not supported"
                )
        elif preserve_edge_attrs:
            # Every attribute any edge has (NetworkX asks this only in unusual cases).
            keys = {}
            for _, _, d in graph.edges(data=True):
                keys.update(dict.fromkeys(d))
            attrs, default = tuple(keys), 1
        else:
            attrs, default = (), 1
        if len(attrs) == 1 and default == 1:
            AG = _cache.recall(graph, attrs[0])
            if AG is not None:
                if preserve_graph_attrs:
                    AG.graph = dict(graph.graph)
                return AG
        return convert(graph, attrs, default=default, preserve_graph_attrs=preserve_graph_attrs)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, ApspGraph):
            return obj.to_networkx()
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        """True, or a string saying why this call must go to NetworkX instead."""
        import networkx as nx

        _cache.forget()
        if name not in FUNCTIONS:
            return f"{name} is not implemented by apsp_lab"
        implemented = FUNCTIONS[name]
        bound = _bind(name, args, kwargs)
        G = bound["G"]
        if not isinstance(G, (nx.Graph, ApspGraph)):
            return f"G of type {type(G).__name__} is not a graph apsp_lab can convert"
        weight = bound.get(implemented.weight_name) if implemented.weighted else None
        if (reason := _weight_reason(weight)) is not None:
            return reason
        if (reason := _cutoff_reason(bound.get("cutoff"))) is not None:
            return reason
        if weight is None:  # unweighted, or a function without weights
            return _function_check(implemented, bound, G, None)
        if isinstance(G, ApspGraph):
            AG = G
        else:
            AG = _cache.cached_conversion(G, weight)
            if AG is None:
                try:
                    AG = convert(G, (weight,))
                except Exception as exc:  # an odd graph class: let NetworkX handle it
                    return f"could not read the graph's edges ({type(exc).__name__}: {exc})"
                _cache.remember(G, weight, AG)
        try:
            w = weights_for(AG, weight, name)
        except NotImplementedError as exc:
            return str(exc)
        return _function_check(implemented, bound, G, w)

    @staticmethod
    def should_run(name, args, kwargs):
        """Whether automatic dispatch should use this backend (given can_run is True).

        Always, except for the streaming all_pairs_* functions on graphs whose n x n
        float64 matrix would take more than ``max_matrix_bytes`` (default: half of the
        physical memory): NetworkX yields those rows one at a time in O(n) memory, where
        this backend would fail or swap. Small graphs are not sent back to NetworkX: the
        answers are the same and both take microseconds there, and one code path for every
        size keeps results (and float rounding) predictable.
        """
        implemented = FUNCTIONS.get(name)
        if implemented is None or not implemented.streaming:
            return True
        import networkx as nx

        bound = _bind(name, args, kwargs)
        G = bound.get("G")
        try:
            n = len(G)
        except TypeError:
            return True
        try:
            limit = nx.config.backends[BACKEND_NAME].max_matrix_bytes
        except (AttributeError, KeyError):
            limit = None
        if limit is None:
            mem = _physical_memory()
            limit = None if mem is None else mem // 2
        if limit is not None and 8 * n * n > limit:
            return (
                f"the {n} x {n} distance matrix ({8 * n * n} bytes) exceeds "
                f"max_matrix_bytes ({limit}); NetworkX streams rows in O(n) memory"
            )
        return True

    @staticmethod
    def on_start_tests(items):
        """Mark NetworkX's own tests that cannot apply to this backend (test mode:
        NETWORKX_TEST_BACKEND=apsp_lab)."""
        import pytest

        for item in items:
            for pattern, reason in _KNOWN_TEST_FAILURES.items():
                if pattern in item.nodeid:
                    item.add_marker(pytest.mark.xfail(reason=reason, strict=False))


# NetworkX tests (pytest node id substrings -> reason) that check something this backend
# deliberately does differently. None for NetworkX 3.6.1: its shortest-path tests (and its
# whole suite) pass under this backend with NETWORKX_FALLBACK_TO_NX=True.
_KNOWN_TEST_FAILURES: dict[str, str] = {}

backend_interface = BackendInterface()
