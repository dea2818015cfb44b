import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED_NOTICE } from '../../emitter.js';
import type { Emitter, GeneratedFile } from '../../emitter.js';
import type { ApiModel } from '../../model.js';
import {
  emitClient,
  emitErrors,
  emitModel,
  emitParams,
  emitService,
  emitVersion,
  emitWebhooks,
  flattenResources,
  hasParams,
  HEADER,
  names,
} from './code.js';
import { emitDotnetReadme } from './readme.js';

export const DOTNET_PACKAGE = { name: 'Payments', version: '1.0.0', description: 'The .NET SDK for the payments service.' };

const RUNTIME_DIR = fileURLToPath(new URL('./runtime/', import.meta.url));

/**
 * The .NET SDK (sdks/dotnet): C# with async/Task, HttpClient and nullable annotations, no
 * dependencies. Generated: models, params, services, errors, client, README, project file and
 * the Mono build script. Copied from runtime/: JSON, request sender, list pages, webhooks, error base.
 */
export const dotnetEmitter: Emitter = {
  language: 'dotnet',
  outDir: 'sdks/dotnet',
  ignore: ['bin', 'obj'],
  emit(model: ApiModel): GeneratedFile[] {
    const objects = model.schemas.filter((s) => s.type.kind === 'object');
    return [
      { path: 'Payments.csproj', contents: csproj() },
      { path: 'build-mono.sh', contents: buildMono() },
      { path: '.gitignore', contents: `# ${GENERATED_NOTICE}\nbin/\nobj/\n` },
      { path: 'README.md', contents: emitDotnetReadme(model, DOTNET_PACKAGE) },
      { path: `src/${names.client}.cs`, contents: emitClient(model) },
      { path: 'src/SdkVersion.cs', contents: emitVersion(model, DOTNET_PACKAGE.version) },
      { path: 'src/Errors.cs', contents: emitErrors(model) },
      { path: 'src/Webhooks.cs', contents: emitWebhooks(model) },
      ...objects.map((s) => ({ path: `src/Models/${names.model(s.name)}.cs`, contents: emitModel(s, model) })),
      ...model.operations.filter(hasParams).map((op) => ({ path: `src/Params/${names.params(op)}.cs`, contents: emitParams(op, model) })),
      ...flattenResources(model.resources).map((r) => ({
        path: `src/Services/${names.service(r.path)}.cs`,
        contents: emitService(r, model),
      })),
      ...readdirSync(RUNTIME_DIR)
        .filter((n) => n.endsWith('.cs'))
        .sort()
        .map((n) => ({ path: `src/Runtime/${n}`, contents: `${HEADER}\n${readFileSync(`${RUNTIME_DIR}${n}`, 'utf8')}` })),
    ];
  },
};

function csproj(): string {
  return `<!-- ${GENERATED_NOTICE} -->
<Project Sdk="Microsoft.NET.Sdk">
  <PropertyGroup>
    <TargetFramework>netstandard2.0</TargetFramework>
    <LangVersion>8.0</LangVersion>
    <Nullable>enable</Nullable>
    <RootNamespace>Payments</RootNamespace>
    <AssemblyName>Payments</AssemblyName>
    <PackageId>${DOTNET_PACKAGE.name}</PackageId>
    <Version>${DOTNET_PACKAGE.version}</Version>
    <Description>${DOTNET_PACKAGE.description}</Description>
    <GenerateDocumentationFile>true</GenerateDocumentationFile>
    <NoWarn>CS1591</NoWarn>
  </PropertyGroup>
</Project>
`;
}

/**
 * Mono's mcs speaks C# 7, which has no nullable reference annotations: the script removes
 * `#nullable enable` and the `?` after reference types (value types keep theirs) into a
 * temporary copy and compiles that. The sources themselves stay annotated for C# 8 compilers.
 */
function buildMono(): string {
  return `# ${GENERATED_NOTICE}
# Builds Payments.dll with Mono (mcs, C# 7): sh build-mono.sh [output directory, default bin/mono]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=\${1:-"$here/bin/mono"}
mkdir -p "$out/src"
for f in $(cd "$here/src" && find . -name '*.cs' | sort); do
  mkdir -p "$out/src/$(dirname "$f")"
  perl -pe 'next if /^\\s*\\/\\//; s/^#nullable enable\\s*$//; s/>\\?(?=[\\s,)>\\]])/>/g; s/\\]\\?(?=[\\s,)>\\]])/]/g; s/\\b([A-Za-z_]\\w*)\\?(?=[\\s,)>\\]])/($1 =~ \\/^(int|long|bool|double|decimal|float|byte|short|char|DateTime|DateTimeOffset|TimeSpan|Guid|CancellationToken)$\\/) ? "$1?" : $1/ge' "$here/src/$f" > "$out/src/$f"
done
mcs -nologo -target:library -langversion:7 -nowarn:1591 -doc:"$out/Payments.xml" -out:"$out/Payments.dll" \\
  -r:System.Net.Http.dll -r:System.Core.dll $(find "$out/src" -name '*.cs' | sort)
echo "$out/Payments.dll"
`;
}
