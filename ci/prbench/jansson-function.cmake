# Appended to jansson's own CMakeLists.txt by ci/prbench.sh --build
# cmake-function: the kernel's two builds by allocgate's CMake package
# (found through CMAKE_PREFIX_PATH). The build type (RelWithDebInfo) is
# the project's.
find_package(allocgate CONFIG REQUIRED)
allocgate_add_kernel(json_build SOURCES kernels/json_build.c LIBRARIES jansson)
