"""Tests of games/eventstore/: the append, the hash chain, loading, projections, verification and replay."""
