// Package release tests what scripts/release.sh writes: the archives, the VS Code extension
// packages and SHA256SUMS. Only Linux runs here, so each binary's platform is checked from its
// file headers (ELF, Mach-O, PE) and from the build information Go writes into it.
package release

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"debug/macho"
	"debug/pe"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/gdl-lsp/gdl/internal/corpus"
)

// platform is one of the five platforms a release ships for.
type platform struct {
	target       string // VS Code's name
	goos, goarch string
}

var platforms = []platform{
	{"linux-x64", "linux", "amd64"},
	{"linux-arm64", "linux", "arm64"},
	{"darwin-x64", "darwin", "amd64"},
	{"darwin-arm64", "darwin", "arm64"},
	{"win32-x64", "windows", "amd64"},
}

func (p platform) exe() string {
	if p.goos == "windows" {
		return "gdl.exe"
	}
	return "gdl"
}

func (p platform) archive(version string) string {
	name := fmt.Sprintf("gdl_%s_%s_%s", version, p.goos, p.goarch)
	if p.goos == "windows" {
		return name + ".zip"
	}
	return name + ".tar.gz"
}

func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// releaseDir is the release to check: $GDL_RELEASE_DIR (scripts/test.sh builds one and points
// here), else one built now with scripts/release.sh, which takes minutes on a cold build cache,
// so not under -short.
func releaseDir(t *testing.T) string {
	if dir := os.Getenv("GDL_RELEASE_DIR"); dir != "" {
		return dir
	}
	if testing.Short() {
		msg := "SKIPPED: -short and no $GDL_RELEASE_DIR; scripts/test.sh checks the release it builds with scripts/release.sh"
		corpus.WriteSummary(t.Name(), []string{msg})
		t.Skip(msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("SKIPPED: node is not installed; scripts/release.sh needs it for the extension packages")
	}
	dir := filepath.Join(t.TempDir(), "release")
	cmd := exec.Command("bash", filepath.Join(repoRoot(t), "scripts", "release.sh"), "0.0.0-test", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release.sh: %v\n%s", err, out)
	}
	return dir
}

// TestRelease checks a release: exactly the expected files, their checksums, and in every archive
// and extension package a binary for the right platform, the license and the version.
func TestRelease(t *testing.T) {
	dir := releaseDir(t)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	version := ""
	for _, e := range entries {
		names = append(names, e.Name())
		if m := regexp.MustCompile(`^gdl-(\d.*)\.vsix$`).FindStringSubmatch(e.Name()); m != nil {
			version = m[1]
		}
	}
	if version == "" {
		t.Fatalf("%s has no universal package gdl-VERSION.vsix: %v", dir, names)
	}
	want := []string{"SHA256SUMS", "gdl-" + version + ".vsix"}
	for _, p := range platforms {
		want = append(want, p.archive(version), "gdl-"+p.target+"-"+version+".vsix")
	}
	slices.Sort(want)
	slices.Sort(names)
	if !slices.Equal(names, want) {
		t.Fatalf("%s holds\n  %v\nwant\n  %v", dir, names, want)
	}
	license, err := os.ReadFile(filepath.Join(repoRoot(t), "LICENSE"))
	if err != nil {
		t.Fatal(err)
	}

	checkSums(t, dir, want)
	for _, p := range platforms {
		t.Run(p.target, func(t *testing.T) {
			files := readTarGz
			if p.goos == "windows" {
				files = readZip
			}
			arch := readFiles(t, filepath.Join(dir, p.archive(version)), files)
			top := strings.TrimSuffix(strings.TrimSuffix(p.archive(version), ".tar.gz"), ".zip") + "/"
			wantFiles := []string{top + p.exe(), top + "LICENSE", top + "README.md"}
			if got := keys(arch); !slices.Equal(got, sorted(wantFiles)) {
				t.Errorf("%s holds %v, want %v", p.archive(version), got, sorted(wantFiles))
			}
			if f, ok := arch[top+"LICENSE"]; ok && !bytes.Equal(f.data, license) {
				t.Errorf("%s: LICENSE differs from the repository's", p.archive(version))
			}
			if f, ok := arch[top+p.exe()]; ok {
				checkBinary(t, p.archive(version)+": "+p.exe(), f, p, version)
				if p.goos == runtime.GOOS && p.goarch == runtime.GOARCH {
					checkRuns(t, f.data, version)
				}
			}

			vsix := readFiles(t, filepath.Join(dir, "gdl-"+p.target+"-"+version+".vsix"), readZip)
			checkPackage(t, vsix, p.target, version, license)
			server := "extension/server/" + p.target + "/" + p.exe()
			if f, ok := vsix[server]; !ok {
				t.Errorf("gdl-%s-%s.vsix has no %s", p.target, version, server)
			} else {
				checkBinary(t, "gdl-"+p.target+"-"+version+".vsix: "+server, f, p, version)
			}
			for name := range vsix {
				if strings.HasPrefix(name, "extension/server/") && name != server {
					t.Errorf("gdl-%s-%s.vsix also holds %s", p.target, version, name)
				}
			}
		})
	}
	t.Run("universal", func(t *testing.T) {
		vsix := readFiles(t, filepath.Join(dir, "gdl-"+version+".vsix"), readZip)
		checkPackage(t, vsix, "", version, license)
		for name := range vsix {
			if strings.HasPrefix(name, "extension/server/") {
				t.Errorf("the universal package holds a server: %s", name)
			}
		}
	})
}

// file is an archive member.
type file struct {
	data []byte
	mode fs.FileMode
}

func readFiles(t *testing.T, path string, read func(string) (map[string]file, error)) map[string]file {
	t.Helper()
	files, err := read(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return files
}

func readTarGz(path string) (map[string]file, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		return nil, err
	}
	tr := tar.NewReader(gz)
	out := map[string]file{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		if h.Uid != 0 || h.Gid != 0 {
			return nil, fmt.Errorf("%s is owned by %d:%d, not 0:0", h.Name, h.Uid, h.Gid)
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			return nil, err
		}
		out[h.Name] = file{data, fs.FileMode(h.Mode).Perm()}
	}
}

func readZip(path string) (map[string]file, error) {
	z, err := zip.OpenReader(path)
	if err != nil {
		return nil, err
	}
	defer z.Close()
	out := map[string]file{}
	for _, f := range z.File {
		if strings.HasSuffix(f.Name, "/") {
			continue
		}
		r, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(r)
		r.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f.Name, err)
		}
		out[f.Name] = file{data, f.Mode().Perm()}
	}
	return out, nil
}

func keys(m map[string]file) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return sorted(out)
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}

// checkSums: SHA256SUMS lists every other file once, with its SHA-256, as `sha256sum -c` reads it.
func checkSums(t *testing.T, dir string, names []string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Errorf("SHA256SUMS: malformed line %q", sc.Text())
			continue
		}
		if _, dup := listed[name]; dup {
			t.Errorf("SHA256SUMS lists %s twice", name)
		}
		listed[name] = sum
	}
	for _, name := range names {
		if name == "SHA256SUMS" {
			continue
		}
		content, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(content)
		if got, ok := listed[name]; !ok {
			t.Errorf("SHA256SUMS does not list %s", name)
		} else if got != hex.EncodeToString(sum[:]) {
			t.Errorf("SHA256SUMS: %s has %s, the file %x", name, got, sum)
		}
		delete(listed, name)
	}
	for name := range listed {
		t.Errorf("SHA256SUMS lists %s, which is not in the release", name)
	}
}

// checkBinary reads the platform of a binary from its file header, as the operating system
// would, and from the build information: OS, architecture, CGO off, the release's version.
func checkBinary(t *testing.T, what string, f file, p platform, version string) {
	t.Helper()
	r := bytes.NewReader(f.data)
	switch p.goos {
	case "linux":
		e, err := elf.NewFile(r)
		if err != nil {
			t.Errorf("%s: not an ELF file: %v", what, err)
			return
		}
		want := map[string]elf.Machine{"amd64": elf.EM_X86_64, "arm64": elf.EM_AARCH64}[p.goarch]
		if e.Machine != want || e.Class != elf.ELFCLASS64 || e.Type != elf.ET_EXEC {
			t.Errorf("%s: ELF %v %v %v, want %v ELFCLASS64 ET_EXEC", what, e.Machine, e.Class, e.Type, want)
		}
		for _, prog := range e.Progs {
			if prog.Type == elf.PT_INTERP {
				t.Errorf("%s: dynamically linked (it has an interpreter): built with CGO on?", what)
			}
		}
	case "darwin":
		m, err := macho.NewFile(r)
		if err != nil {
			t.Errorf("%s: not a Mach-O file: %v", what, err)
			return
		}
		want := map[string]macho.Cpu{"amd64": macho.CpuAmd64, "arm64": macho.CpuArm64}[p.goarch]
		if m.Cpu != want || m.Type != macho.TypeExec {
			t.Errorf("%s: Mach-O %v %v, want %v %v", what, m.Cpu, m.Type, want, macho.TypeExec)
		}
	case "windows":
		w, err := pe.NewFile(r)
		if err != nil {
			t.Errorf("%s: not a PE file: %v", what, err)
			return
		}
		oh, ok := w.OptionalHeader.(*pe.OptionalHeader64)
		if w.Machine != pe.IMAGE_FILE_MACHINE_AMD64 || !ok || oh.Subsystem != pe.IMAGE_SUBSYSTEM_WINDOWS_CUI {
			t.Errorf("%s: PE machine %#x, want %#x (x86-64), a 64-bit console program", what, w.Machine, pe.IMAGE_FILE_MACHINE_AMD64)
		}
	}
	if p.goos != "windows" && f.mode&0o111 != 0o111 {
		t.Errorf("%s: mode %v, not executable", what, f.mode)
	}
	bi, err := buildinfo.Read(bytes.NewReader(f.data))
	if err != nil {
		t.Errorf("%s: no Go build information: %v", what, err)
		return
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if settings["GOOS"] != p.goos || settings["GOARCH"] != p.goarch || settings["CGO_ENABLED"] != "0" {
		t.Errorf("%s: built for GOOS=%s GOARCH=%s CGO_ENABLED=%s, want %s %s 0", what,
			settings["GOOS"], settings["GOARCH"], settings["CGO_ENABLED"], p.goos, p.goarch)
	}
	// -trimpath leaves -ldflags out of the build information: look for the string it set.
	if !bytes.Contains(f.data, []byte("v"+version)) {
		t.Errorf("%s: the version v%s (-X main.version) is not in the binary", what, version)
	}
	if rev := settings["vcs.revision"]; rev != "" && !regexp.MustCompile(`^[0-9a-f]{40}$`).MatchString(rev) {
		t.Errorf("%s: vcs.revision %q", what, rev)
	}
}

// checkRuns runs the binary of this machine's platform: gdl --version names the version and
// the commit it was built from.
func checkRuns(t *testing.T, data []byte, version string) {
	t.Helper()
	exe := filepath.Join(t.TempDir(), "gdl")
	if err := os.WriteFile(exe, data, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(exe, "--version").CombinedOutput()
	if err != nil {
		t.Fatalf("gdl --version: %v\n%s", err, out)
	}
	bi, err := buildinfo.ReadFile(exe)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^gdl v` + regexp.QuoteMeta(version) + ` \(([0-9a-f]{12})[,)]`).FindSubmatch(out)
	if m == nil {
		t.Fatalf("gdl --version printed %q, want gdl v%s (COMMIT...)", out, version)
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && !strings.HasPrefix(s.Value, string(m[1])) {
			t.Errorf("gdl --version names commit %s, the build information %s", m[1], s.Value)
		}
	}
}

// checkPackage reads a .vsix: its manifest names the target platform (none for the universal
// package), the version and the license, which it carries; package.json says MIT.
func checkPackage(t *testing.T, vsix map[string]file, target, version string, license []byte) {
	t.Helper()
	var manifest struct {
		Metadata struct {
			Identity struct {
				ID             string `xml:"Id,attr"`
				Version        string `xml:"Version,attr"`
				TargetPlatform string `xml:"TargetPlatform,attr"`
			}
			License string
		}
	}
	if err := xml.Unmarshal(vsix["extension.vsixmanifest"].data, &manifest); err != nil {
		t.Fatalf("extension.vsixmanifest: %v", err)
	}
	id := manifest.Metadata.Identity
	if id.ID != "gdl" || id.Version != version || id.TargetPlatform != target {
		t.Errorf("extension.vsixmanifest: Id %q Version %q TargetPlatform %q, want gdl %s %q", id.ID, id.Version, id.TargetPlatform, version, target)
	}
	if manifest.Metadata.License != "extension/LICENSE.txt" {
		t.Errorf("extension.vsixmanifest: License %q, want extension/LICENSE.txt", manifest.Metadata.License)
	}
	if f, ok := vsix["extension/LICENSE.txt"]; !ok || !bytes.Equal(f.data, license) {
		t.Errorf("extension/LICENSE.txt is missing or differs from the repository's LICENSE")
	}
	var pkg struct{ License, Version string }
	if err := json.Unmarshal(vsix["extension/package.json"].data, &pkg); err != nil {
		t.Fatalf("extension/package.json: %v", err)
	}
	if pkg.License != "MIT" || pkg.Version != version {
		t.Errorf("extension/package.json: license %q version %q, want MIT %s", pkg.License, pkg.Version, version)
	}
	if _, ok := vsix["extension/out/extension.js"]; !ok {
		t.Errorf("the package has no extension/out/extension.js")
	}
}
