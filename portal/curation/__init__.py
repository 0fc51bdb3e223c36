"""A maintainer's word on what a file did not say: runs excluded from comparisons, a team's names for
workloads, and a read % or transfer size stated for runs whose file left it out."""
