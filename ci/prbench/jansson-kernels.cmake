# Appended to jansson's own CMakeLists.txt by ci/prbench.sh --build cmake:
# the kernel's two builds as a CMake user writes them without allocgate's
# package (examples/strbuf's pattern before it): pkg-config, no flags of
# allocgate's. The build type (RelWithDebInfo: -O2 -g) is the project's.
find_package(PkgConfig REQUIRED)
pkg_check_modules(ALLOCGATE REQUIRED IMPORTED_TARGET allocgate)
pkg_check_modules(ALLOCGATE_COUNTED REQUIRED allocgate-counted)
add_executable(json_build kernels/json_build.c)
target_link_libraries(json_build PRIVATE jansson PkgConfig::ALLOCGATE)
set_target_properties(json_build PROPERTIES RUNTIME_OUTPUT_DIRECTORY kernels)
add_executable(json_build_counted kernels/json_build.c)
target_compile_options(json_build_counted PRIVATE ${ALLOCGATE_COUNTED_CFLAGS})
target_link_libraries(json_build_counted PRIVATE jansson PkgConfig::ALLOCGATE)
set_target_properties(json_build_counted PROPERTIES RUNTIME_OUTPUT_DIRECTORY kernels-counted
	OUTPUT_NAME json_build)
