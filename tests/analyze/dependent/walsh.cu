#include "helpers.cuh"
#include "walsh_kernel.cuh"

int main() { return 0; }
