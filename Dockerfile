# vadaorchestra MCP server over streamable HTTP, with Soufflé installed the way its users install it.
#   docker build -t vadaorchestra .
#   docker run --rm -p 127.0.0.1:8000:8000 -e VADA_MCP_TOKEN=change-me vadaorchestra
#   docker run --rm -p 127.0.0.1:8000:8000 -v "$PWD/my-catalog:/srv/catalog:ro" vadaorchestra
#
# Build arguments; the defaults give the image above (Ubuntu 24.04, Soufflé's release .deb):
#   BASE_IMAGE  any Debian or Ubuntu image with Python >= 3.11 in its archive (deploy/container-check builds a Debian
#               bookworm base with debootstrap when no registry image is reachable)
#   SOUFFLE     release: the .deb of Soufflé's GitHub release, checked against the release's sha512sum.txt;
#               local: a `souffle` binary you built, put at deploy/souffle/souffle (extra shared libraries it needs in
#                      deploy/souffle/lib/); its preprocessor (mcpp) and common runtime libraries come from apt;
#               none: no Soufflé; `--engine auto` then runs on DuckDB
# pip behind a TLS-inspecting proxy: pass the host's CA bundle as a build secret (it is not kept in the image):
#   --secret id=ca-bundle,src=/etc/ssl/certs/ca-certificates.crt
ARG BASE_IMAGE=ubuntu:24.04
FROM ${BASE_IMAGE}

ARG SOUFFLE=release
ARG SOUFFLE_VERSION=2.5
ARG SOUFFLE_DEB=x86_64-ubuntu-2404-souffle-${SOUFFLE_VERSION}-Linux.deb
ENV DEBIAN_FRONTEND=noninteractive PYTHONUNBUFFERED=1

RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*

# Soufflé, from where SOUFFLE says
WORKDIR /tmp/souffle
COPY deploy/souffle/ /tmp/souffle/local/
RUN set -e; case "${SOUFFLE}" in \
    release) \
      curl -fsSLO "https://github.com/souffle-lang/souffle/releases/download/${SOUFFLE_VERSION}/${SOUFFLE_DEB}"; \
      curl -fsSLO "https://github.com/souffle-lang/souffle/releases/download/${SOUFFLE_VERSION}/sha512sum.txt"; \
      grep -F "  ${SOUFFLE_DEB}" sha512sum.txt | sha512sum -c -; \
      apt-get update; apt-get install -y --no-install-recommends "./${SOUFFLE_DEB}"; \
      souffle --version ;; \
    local) \
      test -x local/souffle || { echo "SOUFFLE=local: no executable deploy/souffle/souffle in the build context" >&2; exit 1; }; \
      apt-get update; \
      apt-get install -y --no-install-recommends mcpp libgomp1 libsqlite3-0 zlib1g libncurses6 \
        "$(apt-cache show libffi8 > /dev/null 2>&1 && echo libffi8 || echo libffi7)"; \
      install -m 0755 local/souffle /usr/local/bin/souffle; \
      if [ -d local/lib ]; then cp -a local/lib/. /usr/local/lib/; ldconfig; fi; \
      souffle --version; \
      souffle --version | grep -q "Word size: 64" || { echo "SOUFFLE=local: deploy/souffle/souffle has 32-bit words;" \
        "its floats then differ from DuckDB's: build it with cmake -DSOUFFLE_DOMAIN_64BIT=ON" >&2; exit 1; } ;; \
    none) echo "no Soufflé in this image: --engine auto runs on DuckDB" ;; \
    *) echo "SOUFFLE must be release, local or none, not '${SOUFFLE}'" >&2; exit 1 ;; \
  esac; \
  rm -rf /var/lib/apt/lists/* /tmp/souffle

# The package, installed as the README says (a virtualenv, then pip install); the optional CA secret is pip's only.
WORKDIR /opt/vadaorchestra
COPY pyproject.toml README.md ./
COPY vadaorchestra ./vadaorchestra
RUN --mount=type=secret,id=ca-bundle \
    if [ -s /run/secrets/ca-bundle ]; then export PIP_CERT=/run/secrets/ca-bundle; fi \
 && python3 -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir --disable-pip-version-check . \
 && /opt/venv/bin/vadaorchestra --version
ENV PATH=/opt/venv/bin:$PATH
# the scenarios (`vadaorchestra run concentration-risk`); they generate their data next to their catalogs
COPY scenarios /opt/vadaorchestra/scenarios
ENV VADA_SCENARIOS=/opt/vadaorchestra/scenarios

# The example catalog; mount your own over /srv/catalog (and its data root over /srv/data with --data).
COPY examples/catalog /srv/catalog
RUN useradd --system --home /srv vada && mkdir -p /srv/workspaces && chown vada /srv/workspaces \
 && chown -R vada /opt/vadaorchestra/scenarios
USER vada
WORKDIR /srv

EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=5s --start-period=10s --retries=3 \
  CMD python3 -c "import urllib.request, sys; sys.exit(urllib.request.urlopen('http://127.0.0.1:8000/health').status != 200)"
# Inside the container the server listens on all interfaces, so it needs VADA_MCP_TOKEN (clients send
# "Authorization: Bearer <token>") and refuses to start without one; publish the port on loopback as well
# (-p 127.0.0.1:8000:8000). Clients reaching it by another name than 127.0.0.1 or localhost need --allowed-host.
CMD ["vadaorchestra", "serve", "--catalog", "/srv/catalog", "--transport", "http", "--host", "0.0.0.0", \
     "--port", "8000", "--engine", "auto", "--workspaces", "/srv/workspaces"]
