# The GPU lab: driver-API layer and bench on a real GPU (label gpu: exit 77 = skipped without one),
# and the no-GPU contract of `smemlab bench` (skipped where a GPU is present).
smemlab_test(test_gpu SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_gpu.c LABELS gpu)
smemlab_test(test_bench_hw SOURCES ${CMAKE_CURRENT_SOURCE_DIR}/test_bench_hw.c LABELS gpu)
smemlab_cli_test(cli_bench_no_gpu bench_no_gpu.sh)
# One GPU test at a time: timings and Nsight Compute's replays should not share the device.
set_tests_properties(test_gpu test_bench_hw PROPERTIES RESOURCE_LOCK gpu)
