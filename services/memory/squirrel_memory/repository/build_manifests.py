"""Build files of the JVM and .NET: Maven's `pom.xml`, Gradle's `build.gradle(.kts)` and a
`*.csproj`/`*.fsproj` — what the project says it is, the Java or .NET version it builds for and
its dependencies and plugins (a Gradle test or debug configuration marks its dependencies as
for development). XML is parsed with `xml.etree` (no DTD or entities); a Gradle script, which
has no parser in Python, is read line by line with anchored patterns."""

from __future__ import annotations

import re
from xml.etree import ElementTree as ET

from squirrel_memory.repository.findings import Readings, Toolchain
from squirrel_memory.repository.manifest_fields import add_dependency, describe, toml_line
from squirrel_memory.repository.snapshot import TextFile


def _xml(text: TextFile) -> ET.Element:
    """Parse a build XML file; documents declaring a DTD or entities are refused (pom and
    project files never need them, and refusing them shuts out entity-expansion attacks)."""
    if "<!DOCTYPE" in text.text or "<!ENTITY" in text.text:
        raise ValueError("XML with a DTD or entities is not read")
    return ET.fromstring(text.text)  # noqa: S314 - DTDs refused above; expat caps expansion


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def read_pom_xml(text: TextFile, out: Readings) -> None:
    root = _xml(text)
    out.manifests[text.path] = "jvm"
    children = {_local(child.tag): child for child in root}
    artifact = children.get("artifactId")
    if artifact is not None and artifact.text:
        out.name_project(artifact.text.strip(), text.ref_of("<artifactId>"))
    described = children.get("description")
    if described is not None and described.text:
        describe(out, described.text, toml_line(text, "<description>"))
    for element in root.iter():
        tag = _local(element.tag)
        if tag in ("java.version", "maven.compiler.release", "maven.compiler.source"):
            if element.text:
                ref = text.ref_of(f"<{tag}>")
                out.toolchains.append(Toolchain("jvm", element.text.strip(), ref))
        elif tag in ("dependency", "parent", "plugin"):
            fields = {_local(c.tag): (c.text or "").strip() for c in element}
            if fields.get("groupId") and fields.get("artifactId"):
                name = f"{fields['groupId']}:{fields['artifactId']}"
                ref = text.ref_of(f"<artifactId>{fields['artifactId']}<")
                # A `test` scope puts it on the tests' classpath only (an in-memory database
                # for the tests says nothing of the application's).
                dev = tag == "dependency" and fields.get("scope") == "test"
                version = fields.get("version", "")
                add_dependency(out, text, "jvm", name, version, ref=ref, dev=dev)
                add_dependency(out, text, "jvm", fields["groupId"], version, ref=ref, dev=dev)


_GRADLE_DEP = re.compile(r"""["']([\w.\-]+):([\w.\-]+)(?::([\w.\-]+))?["']""")
_GRADLE_PLUGIN = re.compile(r"""id\s*\(?\s*["']([\w.\-]+)["']\s*\)?\s*version\s*["']([^"']+)""")


#: Gradle configurations of the tests or of development builds (`testImplementation`,
#: `androidTestImplementation`, `debugImplementation`).
_GRADLE_DEV_CONFIGURATION = re.compile(
    r"^\s*(?:test|androidTest|debug|testFixtures|integrationTest)\w*\s*[(\s]"
)
_GRADLE_DESCRIPTION = re.compile(r"""^\s*description\s*=\s*["']([^"']+)["']""")
#: The Java version a Gradle build compiles for: `jvmToolchain(21)`,
#: `JavaLanguageVersion.of(21)`, `JavaVersion.VERSION_17` (`VERSION_1_8` is 1.8).
_GRADLE_JAVA = re.compile(
    r"\bjvmToolchain\s*\(\s*(\d+)\s*\)|\bJavaLanguageVersion\.of\(\s*(\d+)\s*\)"
    r"|\bJavaVersion\.VERSION_(\d+(?:_\d+)?)\b"
)


def read_gradle(text: TextFile, out: Readings) -> None:
    out.manifests[text.path] = "jvm"
    java = False
    for number, line in enumerate(text.lines, 1):
        if match := _GRADLE_DESCRIPTION.match(line):
            describe(out, match.group(1), toml_line(text, "description"))
        if not java and (match := _GRADLE_JAVA.search(line.split("//", 1)[0])):
            version = next(g for g in match.groups() if g).replace("_", ".")
            out.toolchains.append(Toolchain("jvm", version, text.ref(number)))
            java = True
        if match := _GRADLE_PLUGIN.search(line):
            add_dependency(out, text, "jvm", match.group(1), match.group(2), ref=text.ref(number))
        dev = bool(_GRADLE_DEV_CONFIGURATION.match(line))
        for match in _GRADLE_DEP.finditer(line):
            name = f"{match.group(1)}:{match.group(2)}"
            add_dependency(
                out, text, "jvm", name, match.group(3) or "", ref=text.ref(number), dev=dev
            )


def read_csproj(text: TextFile, out: Readings) -> None:
    root = _xml(text)
    out.manifests[text.path] = "dotnet"
    sdk = root.get("Sdk", "")
    if sdk == "Microsoft.NET.Sdk.Web":
        add_dependency(out, text, "dotnet", "Microsoft.AspNetCore.App", "", ref=text.ref_of("Sdk="))
    for element in root.iter():
        tag = _local(element.tag)
        if tag == "Description" and element.text:
            describe(out, element.text, toml_line(text, "<Description>"))
        elif tag in ("TargetFramework", "TargetFrameworks") and element.text:
            ref = text.ref_of(f"<{tag}>")
            out.toolchains.append(Toolchain("dotnet", element.text.strip(), ref))
        elif tag == "PackageReference" and element.get("Include"):
            name = element.get("Include", "")
            ref = text.ref_of(f'"{name}"')
            add_dependency(out, text, "dotnet", name, element.get("Version", ""), ref=ref)
