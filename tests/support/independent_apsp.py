#!/usr/bin/env python3
"""An independent APSP solver for the tests: Dijkstra from every source in pure Python, sharing
no code with the project. Reads the edge-list format on stdin or a file, prints the matrix.
    independent_apsp.py graph.txt > expected.txt"""

import heapq
import sys

INF = 1073741823


def main():
    data = (open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin).read().split()
    v, e = int(data[0]), int(data[1])
    adj = [dict() for _ in range(v)]
    for k in range(e):
        s, d, w = (int(x) for x in data[2 + 3 * k : 5 + 3 * k])
        if s != d and w < adj[s].get(d, INF + 1):
            adj[s][d] = w
    out = []
    for src in range(v):
        dist = [INF] * v
        dist[src] = 0
        heap = [(0, src)]
        while heap:
            du, u = heapq.heappop(heap)
            if du != dist[u]:
                continue
            for w_, c in adj[u].items():
                if du + c < dist[w_]:
                    dist[w_] = du + c
                    heapq.heappush(heap, (dist[w_], w_))
        out.append(" ".join(str(min(x, INF)) for x in dist))
    sys.stdout.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
