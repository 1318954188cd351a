# Cross toolchain: AArch64 Linux with Debian's cross compiler (apt-get install
# g++-aarch64-linux-gnu). For NEON, SVE and SVE2 kernels built on an x86 machine:
#   cmake -S . -B build-aarch64 -DCMAKE_TOOLCHAIN_FILE=<gentt>/cmake/toolchains/aarch64-linux-gnu.cmake \
#         -DGENTT_GENERATOR=<native gentt build>/generator/gentt-gen
# Programs built this way run under qemu-aarch64 -L /usr/aarch64-linux-gnu (or link -static).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
