# allocgateConfig.cmake: allocgate as a CMake package, installed by
# `ninja install` as PREFIX/lib/cmake/allocgate/ (docs/install.md). Found by
#   find_package(allocgate CONFIG REQUIRED)   # cmake -DCMAKE_PREFIX_PATH=PREFIX
# it gives
#   allocgate::probe   imported target: <allocgate/probe.h> and the probe
#                      library every kernel links (what allocgate.pc says)
#   allocgate_add_kernel(NAME SOURCES src...
#                        [LIBRARIES targets-or-libs...]
#                        [INCLUDE_DIRECTORIES dirs...]
#                        [COUNTED_SOURCES library-sources...])
#     builds a kernel twice, where the gate looks for it
#     (`gate run --kernel-dir <build>/kernels`):
#       ${CMAKE_BINARY_DIR}/kernels/NAME          target NAME: the timed build
#       ${CMAKE_BINARY_DIR}/kernels-counted/NAME  target NAME_counted: the twin
#     SOURCES are compiled into both, the twin's with the counting header
#     force-included (allocgate-counted.pc's Cflags), so that their own
#     allocation calls are counted (heap_*). LIBRARIES are linked into both
#     (target_link_libraries, PRIVATE), INCLUDE_DIRECTORIES added to both
#     (relative ones from the calling CMakeLists.txt's directory).
#     COUNTED_SOURCES are sources of a library in LIBRARIES compiled into the
#     twin with the counting header too, so that the library's own calls
#     are heap_* counts; the twin's copy takes precedence over the
#     library's. They are compiled with the kernel's flags (the usage
#     requirements of LIBRARIES, INCLUDE_DIRECTORIES), not with the
#     library target's PRIVATE ones. Without them the library's calls are
#     still counted by the interposer (proc_*) and the cost pass.
#     Both targets, and the library targets of this project named in
#     LIBRARIES (their code is the kernel's code too), are compiled with
#     -ffile-prefix-map=${CMAKE_SOURCE_DIR}/= (GCC 8, Clang 10): CMake
#     passes absolute paths, and __FILE__ (an assert's message, a counted
#     allocation's site) would otherwise differ between a checkout and
#     the git worktree that `gate ab` builds a pull request's base in, so
#     that a kernel whose code did not change would not be seen as the
#     same code; mapped to nothing, not to ".", so that the gate names
#     src/x.c as a Make build does. And with
#     -fdebug-prefix-map=${CMAKE_BINARY_DIR}=. (given after it, so that it
#     wins for the build folder): the compilation's folder in the debug
#     information, which the cost pass joins to those relative names.
#     The target allocgate-kernels builds every kernel declared.
#   ALLOCGATE_COUNTED_COMPILE_OPTIONS  the counting header's forced include
#                      (allocgate-counted.pc's Cflags), for a twin of your own
# The paths are computed from this file's location, so that a copied
# prefix or a DESTDIR staging tree works as the prefix (as the
# relocatable .pc files do).

# the probe's threads use pthreads (allocgate.pc: -pthread), asked for
# without leaving the preference set in the caller's scope; before the
# policy push below, as find_dependency returns from this file when
# Threads is missing
set(_allocgate_prefer_pthread "${THREADS_PREFER_PTHREAD_FLAG}")
set(THREADS_PREFER_PTHREAD_FLAG ON)
include(CMakeFindDependencyMacro)
find_dependency(Threads)
set(THREADS_PREFER_PTHREAD_FLAG "${_allocgate_prefer_pthread}")
unset(_allocgate_prefer_pthread)

cmake_policy(PUSH)
cmake_policy(VERSION 3.16)

# lib/cmake/allocgate/ -> the prefix
get_filename_component(_allocgate_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)

if(NOT TARGET allocgate::probe)
	add_library(allocgate::probe STATIC IMPORTED)
	set(_allocgate_links Threads::Threads)
	if(CMAKE_SYSTEM_NAME STREQUAL "Linux")
		# the counters' arithmetic and the interposer's reader (dlsym), as
		# in allocgate.pc's Libs on Linux
		list(APPEND _allocgate_links m ${CMAKE_DL_LIBS})
	endif()
	set_target_properties(allocgate::probe PROPERTIES
		IMPORTED_LOCATION "${_allocgate_prefix}/lib/liballocgate.a"
		INTERFACE_INCLUDE_DIRECTORIES "${_allocgate_prefix}/include"
		INTERFACE_LINK_LIBRARIES "${_allocgate_links}")
	unset(_allocgate_links)
endif()

# the counted build's forced include: allocgate-counted.pc's Cflags
set(ALLOCGATE_COUNTED_COMPILE_OPTIONS "SHELL:-include allocgate/alloc_count.h")
unset(_allocgate_prefix)

function(allocgate_add_kernel name)
	cmake_parse_arguments(PARSE_ARGV 1 _ag "" ""
		"SOURCES;LIBRARIES;INCLUDE_DIRECTORIES;COUNTED_SOURCES")
	if(_ag_UNPARSED_ARGUMENTS)
		message(FATAL_ERROR "allocgate_add_kernel(${name}): unexpected arguments: "
			"${_ag_UNPARSED_ARGUMENTS} (SOURCES, LIBRARIES, INCLUDE_DIRECTORIES, "
			"COUNTED_SOURCES)")
	endif()
	if(NOT _ag_SOURCES)
		message(FATAL_ERROR "allocgate_add_kernel(${name}): no SOURCES")
	endif()
	set(gnu "$<C_COMPILER_ID:GNU,Clang,AppleClang>")
	set(prefix_map "$<${gnu}:-ffile-prefix-map=${CMAKE_SOURCE_DIR}/=>"
		"$<${gnu}:-fdebug-prefix-map=${CMAKE_BINARY_DIR}=.>")
	set(dirs kernels kernels-counted)
	set(targets ${name} ${name}_counted)
	add_executable(${name} ${_ag_SOURCES})
	add_executable(${name}_counted ${_ag_SOURCES} ${_ag_COUNTED_SOURCES})
	target_compile_options(${name}_counted PRIVATE ${ALLOCGATE_COUNTED_COMPILE_OPTIONS})
	foreach(i 0 1)
		list(GET targets ${i} target)
		list(GET dirs ${i} dir)
		# a generator expression keeps multi-config generators from adding
		# a per-configuration folder: the gate looks in kernels/ itself
		set_target_properties(${target} PROPERTIES
			OUTPUT_NAME ${name}
			RUNTIME_OUTPUT_DIRECTORY "$<1:${CMAKE_BINARY_DIR}/${dir}>")
		target_compile_options(${target} PRIVATE ${prefix_map})
		target_include_directories(${target} PRIVATE ${_ag_INCLUDE_DIRECTORIES})
		target_link_libraries(${target} PRIVATE ${_ag_LIBRARIES} allocgate::probe)
	endforeach()
	foreach(lib IN LISTS _ag_LIBRARIES)
		if(TARGET ${lib})
			get_target_property(imported ${lib} IMPORTED)
			get_target_property(type ${lib} TYPE)
			if(NOT imported AND type MATCHES "^(STATIC|SHARED|MODULE|OBJECT)_LIBRARY$")
				target_compile_options(${lib} PRIVATE ${prefix_map})
			endif()
		endif()
	endforeach()
	if(NOT TARGET allocgate-kernels)
		add_custom_target(allocgate-kernels)
	endif()
	add_dependencies(allocgate-kernels ${targets})
endfunction()

cmake_policy(POP)
