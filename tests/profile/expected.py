#!/usr/bin/env python3
"""Turns Nsight Compute's CSV (ncu.sh's ncu.csv; ncu_h100.csv here) into expected.tsv, the
counts test_profile.c compares the emulator's with: one line a kernel, one column a count,
"-" where ncu gave none. Usage: expected.py ncu_h100.csv > expected.tsv"""
import csv
import sys

# column: the ncu metrics whose sum it is
COLUMNS = {
    "gld_req": ["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum"],
    "gld_sec": ["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"],
    "gst_req": ["l1tex__t_requests_pipe_lsu_mem_global_op_st.sum"],
    "gst_sec": ["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"],
    "gat_req": ["l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum"],
    "gat_sec": ["l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
                "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum"],
    "sld_req": ["smsp__sass_inst_executed_op_shared_ld.sum"],
    "sld_wf": ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"],
    "sst_req": ["smsp__sass_inst_executed_op_shared_st.sum"],
    "sst_wf": ["l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"],
    "sld_conf": ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"],
    "sst_conf": ["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"],
    "sat_req": ["smsp__sass_inst_executed_op_shared_atom.sum"],
    "gld_lanes": ["smsp__sass_thread_inst_executed_op_global_ld.sum"],
    "bar": ["smsp__inst_executed_op_barrier.sum"],
    "br_div": ["smsp__sass_branch_targets_threads_divergent.sum"],
}


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def main():
    rows = [r for r in csv.reader(open(sys.argv[1], newline="")) if r]
    head = next(i for i, r in enumerate(rows) if "Metric Name" in r)
    names = rows[head]
    col = {n: i for i, n in enumerate(names)}
    kernels = {}
    order = []
    for r in rows[head + 1:]:
        if len(r) < len(names):
            continue
        k = r[col["Kernel Name"]].split("(")[0]
        if k not in kernels:
            kernels[k] = {}
            order.append(k)
        kernels[k][r[col["Metric Name"]]] = number(r[col["Metric Value"]])
    print("kernel\t" + "\t".join(COLUMNS))
    for k in order:
        m = kernels[k]
        out = [k]
        for c, metrics in COLUMNS.items():
            vals = [m.get(x) for x in metrics if m.get(x) is not None]
            out.append(str(int(round(sum(vals)))) if vals else "-")
        print("\t".join(out))


if __name__ == "__main__":
    main()
