#!/usr/bin/env bash
# Prints debian/control's Build-Depends, one package a line, in their order, as dpkg itself reads
# them (Dpkg::Deps: build profiles, architecture restrictions). That field is the project's one
# list of Debian packages (docs/packaging.md); the scripts that need a list take it from here.
#
#   scripts/build-deps.sh [PROFILE...]
#     no profile                 everything: the build, the tests and the VM tests (make deps)
#     nocheck                    what the build links and runs
#     pkg.kiosk-carousel.novm    the build and the tests, without the VM tests
# debhelper's own virtual packages (debhelper-compat, dh-sequence-*) are left out: they name
# debhelper, which only the package build needs.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
PROFILES="$*" CONTROL=$top/debian/control perl -MDpkg::Control::Info -MDpkg::Deps -e '
    my $source = Dpkg::Control::Info->new($ENV{CONTROL})->get_source()
        or die "build-deps: $ENV{CONTROL} has no source paragraph\n";
    my $field = $source->{"Build-Depends"} or die "build-deps: $ENV{CONTROL} has no Build-Depends\n";
    my $deps = deps_parse($field, build_dep => 1, reduce_arch => 1,
                          reduce_profiles => 1, build_profiles => [split " ", $ENV{PROFILES}])
        or die "build-deps: cannot parse the Build-Depends of $ENV{CONTROL}\n";
    for my $dep ($deps->get_deps()) {
        my $name = $dep->isa("Dpkg::Deps::Simple") ? $dep->{package} : "$dep";
        print "$name\n" unless $name =~ /^(debhelper-compat|dh-sequence-)/;
    }'
