#!/usr/bin/env python3
"""scripts/check_packages.py on real, tiny Ninja builds against this machine's dpkg database: a build whose headers
and libraries come from the packages a setup script names passes; one that uses a package the script leaves out
fails, naming that package and a file of it."""

import os
import shutil
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "scripts", "check_packages.py")
sys.path.insert(0, os.path.dirname(CHECK))
import check_packages  # noqa: E402

NEEDS = ("gcc", "ninja", "dpkg-query")
MISSING = [tool for tool in NEEDS if not shutil.which(tool)]


def installed(package):
    out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True).stdout
    return out.endswith(" installed")


@unittest.skipIf(MISSING, f"needs {', '.join(MISSING)} (a Debian machine with scripts/setup.sh's packages)")
class CheckPackages(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def setup_script(self, *packages):
        """A setup.sh stand-in whose --list names `packages`."""
        path = os.path.join(self.dir, "setup.sh")
        with open(path, "w") as f:
            f.write("[ \"$2\" = --list ] || exit 2\n" + "".join(f"echo {p}\n" for p in packages))
        return path

    def build(self, include, link):
        """A Ninja build of one C file that includes `include` and links `link`, built so that its deps log exists."""
        build = os.path.join(self.dir, "build")
        os.mkdir(build)
        with open(os.path.join(build, "main.c"), "w") as f:
            f.write(f"#include <{include}>\nint main(void) {{ return 0; }}\n")
        with open(os.path.join(build, "build.ninja"), "w") as f:
            f.write("rule cc\n  command = gcc -MD -MF $out.d -c $in -o $out\n  deps = gcc\n  depfile = $out.d\n"
                    "rule link\n  command = gcc $in -o $out $LINK_LIBRARIES\n"
                    "build main.o: cc main.c\n"
                    f"build main: link main.o\n  LINK_LIBRARIES = {link}\n")
        subprocess.run(["ninja", "-C", build], check=True, capture_output=True)
        return build

    def check(self, setup, build):
        return subprocess.run([sys.executable, CHECK, "--setup", setup, build], capture_output=True, text=True)

    def test_a_build_of_the_named_packages_passes(self):
        result = self.check(self.setup_script("build-essential"), self.build("stdio.h", "-lm"))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("all come from packages", result.stdout)

    def test_a_header_of_a_package_left_out_is_named(self):
        # stdio.h and libm.so are libc6-dev's, which only build-essential brings: not the base system.
        result = self.check(self.setup_script(), self.build("stdio.h", "-lm"))
        self.assertEqual(result.returncode, 1)
        self.assertRegex(result.stderr, r"libc6-dev +e\.g\. /usr/include/")

    @unittest.skipUnless(installed("libnuma-dev"), "needs libnuma-dev")
    def test_a_library_of_a_package_left_out_is_named(self):
        build = self.build("stdio.h", "/usr/lib/x86_64-linux-gnu/libnuma.so")
        result = self.check(self.setup_script("build-essential"), build)
        self.assertEqual(result.returncode, 1)
        self.assertRegex(result.stderr, r"libnuma-dev +e\.g\. /usr/lib/x86_64-linux-gnu/libnuma\.so")
        self.assertNotIn("libc6-dev", result.stderr)
        result = self.check(self.setup_script("build-essential", "libnuma-dev"), build)
        self.assertEqual(result.returncode, 0, result.stderr)

    def test_a_directory_without_build_ninja_is_refused(self):
        result = self.check(self.setup_script("build-essential"), self.dir)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no build.ninja", result.stderr)


class Unaccounted(unittest.TestCase):
    def test_a_file_no_package_owns_is_named_as_such(self):
        owners = {"/usr/include/a.h": {"liba-dev"}, "/usr/include/b.h": {"libb-dev"}}
        files = {"/usr/include/a.h", "/usr/include/b.h", "/usr/local/include/c.h"}
        self.assertEqual(check_packages.unaccounted(files, owners, {"liba-dev"}),
                         {"libb-dev": "/usr/include/b.h", None: "/usr/local/include/c.h"})

    def test_the_closure_takes_the_installed_alternative_and_virtual_providers(self):
        status = {
            "top": {"Depends": "libx (>= 1) | liby, virt", "Pre-Depends": "pre:any"},
            "liby": {}, "pre": {}, "impl": {"Provides": "virt (= 2)"}, "stray": {},
        }
        self.assertEqual(check_packages.closure(["top"], status), {"top", "liby", "pre", "impl"})


if __name__ == "__main__":
    unittest.main()
