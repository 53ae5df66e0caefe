# allocgate.mk: a project's kernels built twice with GNU make, installed by
# `ninja install` as PREFIX/share/allocgate/allocgate.mk and named by
# allocgate.pc (docs/install.md):
#
#   include $(shell pkg-config --variable=makefile allocgate)
#   CPPFLAGS += -Isrc
#   $(eval $(call allocgate_kernel,NAME,kernels/NAME.c src/lib.c,-lfoo))
#
# allocgate_kernel,NAME,SOURCES[,LIBS] makes
#   $(ALLOCGATE_BUILD)/kernels/NAME          the timed build
#   $(ALLOCGATE_BUILD)/kernels-counted/NAME  the counted twin: every source
#       compiled with the counting header force-included, so that their
#       own allocation calls are counted (heap_*)
# and adds both to the phony target allocgate-kernels. ALLOCGATE_BUILD is
# build unless set before; `gate run --kernel-dir build/kernels`. Each
# source is compiled once per build into ALLOCGATE_BUILD/allocgate-obj/
# (timed/ and counted/, with its header dependencies), with $(CC),
# $(CPPFLAGS) and $(CFLAGS) (-g gives the cost pass its sites), and
# linked with $(LDFLAGS), LIBS (library files among them are
# prerequisites), the probe and $(LDLIBS). Declared before any target of
# the Makefile, the kernels are its default goal.
#
# It defines
#   ALLOCGATE_CFLAGS          pkg-config --cflags allocgate
#   ALLOCGATE_COUNTED_CFLAGS  pkg-config --cflags allocgate-counted
#   ALLOCGATE_LIBS            pkg-config --libs allocgate
#   ALLOCGATE_PREFIX_MAP      -ffile-prefix-map=$(CURDIR)/= (GCC 8, Clang 10):
#       __FILE__ and the debug paths relative to the project, so that a
#       pull request's base, built in a git worktree elsewhere, is seen as
#       the same code when it is (gate ab), and the gate names src/x.c
#       (not ./src/x.c); -fdebug-prefix-map=$(CURDIR)=. after it: the
#       compilation's folder in the debug information, to which the cost
#       pass joins those names
# from the prefix this file is installed in (its lib/pkgconfig first on
# pkg-config's path), or from PKG_CONFIG_PATH for an uninstalled checkout.

ALLOCGATE_MK_DIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
ALLOCGATE_PC_DIR := $(abspath $(ALLOCGATE_MK_DIR)/../../lib/pkgconfig)
ALLOCGATE_BUILD ?= build
PKG_CONFIG ?= pkg-config
# installed (PREFIX/share/allocgate/): this prefix's packages before any
# other allocgate on the path
allocgate_installed := $(and $(filter %/share/allocgate,$(ALLOCGATE_MK_DIR)),\
	$(wildcard $(ALLOCGATE_PC_DIR)/allocgate.pc))
allocgate_pkg_config := $(if $(allocgate_installed),\
	PKG_CONFIG_PATH='$(ALLOCGATE_PC_DIR)'$${PKG_CONFIG_PATH:+:$$PKG_CONFIG_PATH} )$(PKG_CONFIG)
ALLOCGATE_CFLAGS := $(shell $(allocgate_pkg_config) --cflags allocgate)
ALLOCGATE_COUNTED_CFLAGS := $(shell $(allocgate_pkg_config) --cflags allocgate-counted)
ALLOCGATE_LIBS := $(shell $(allocgate_pkg_config) --libs allocgate)
ifeq ($(ALLOCGATE_LIBS),)
$(error allocgate.mk: $(PKG_CONFIG) finds no allocgate (PKG_CONFIG_PATH=$(PKG_CONFIG_PATH)))
endif
ALLOCGATE_PREFIX_MAP := -ffile-prefix-map=$(CURDIR)/= -fdebug-prefix-map=$(CURDIR)=.

.PHONY: allocgate-kernels

# allocgate_object FLAVOR,SOURCE: the object of SOURCE in FLAVOR (timed or
# counted); ../ and a leading / kept inside the object folder
allocgate_object = $(ALLOCGATE_BUILD)/allocgate-obj/$(1)/$(subst ../,up/,$(patsubst /%,root/%,$(basename $(2)))).o

# allocgate_object_rule FLAVOR,SOURCE,FLAGS: the rule of that object
# compiled with the variable named FLAGS, for eval (once per object:
# kernels share their library's sources)
define allocgate_object_rule
allocgate_seen_$(1)_$(2) := 1
$(call allocgate_object,$(1),$(2)): $(2)
	@mkdir -p $$(@D)
	$$(CC) $$(CPPFLAGS) $$(CFLAGS) $$($(3)) $$(ALLOCGATE_PREFIX_MAP) -MMD -MP -c -o $$@ $$<
-include $(patsubst %.o,%.d,$(call allocgate_object,$(1),$(2)))
endef

# allocgate_link FLAVOR,DIR,NAME,SOURCES,LIBS: an executable, for eval
define allocgate_link
$(ALLOCGATE_BUILD)/$(2)/$(3): $(foreach s,$(4),$(call allocgate_object,$(1),$(s))) $(filter-out -%,$(5))
	@mkdir -p $$(@D)
	$$(CC) $$(CFLAGS) $$(LDFLAGS) -o $$@ $(foreach s,$(4),$(call allocgate_object,$(1),$(s))) $(5) $$(ALLOCGATE_LIBS) $$(LDLIBS)
allocgate-kernels: $(ALLOCGATE_BUILD)/$(2)/$(3)
endef

# allocgate_kernel NAME,SOURCES[,LIBS]: both executables (above), for eval
define allocgate_kernel
$(if $(.DEFAULT_GOAL),,.DEFAULT_GOAL := allocgate-kernels)
$(foreach s,$(2),$(if $(allocgate_seen_timed_$(s)),,$(eval $(call allocgate_object_rule,timed,$(s),ALLOCGATE_CFLAGS))))
$(foreach s,$(2),$(if $(allocgate_seen_counted_$(s)),,$(eval $(call allocgate_object_rule,counted,$(s),ALLOCGATE_COUNTED_CFLAGS))))
$(call allocgate_link,timed,kernels,$(1),$(2),$(3))
$(call allocgate_link,counted,kernels-counted,$(1),$(2),$(3))
endef
