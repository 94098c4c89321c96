# vadaorchestra MCP server over streamable HTTP, with Soufflé installed the way its users install it.
#   docker build -t vadaorchestra .
#   docker run --rm -p 8000:8000 -e VADA_MCP_TOKEN=change-me vadaorchestra
#   docker run --rm -p 8000:8000 -v "$PWD/my-catalog:/srv/catalog:ro" vadaorchestra
FROM ubuntu:24.04

ARG SOUFFLE_VERSION=2.5
ARG SOUFFLE_DEB=x86_64-ubuntu-2404-souffle-${SOUFFLE_VERSION}-Linux.deb
ENV DEBIAN_FRONTEND=noninteractive PYTHONUNBUFFERED=1

RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates curl \
 && rm -rf /var/lib/apt/lists/*

# Soufflé: the .deb attached to its GitHub release, checked against the release's sha512sum.txt
WORKDIR /tmp/souffle
RUN curl -fsSLO "https://github.com/souffle-lang/souffle/releases/download/${SOUFFLE_VERSION}/${SOUFFLE_DEB}" \
 && curl -fsSLO "https://github.com/souffle-lang/souffle/releases/download/${SOUFFLE_VERSION}/sha512sum.txt" \
 && grep -F "  ${SOUFFLE_DEB}" sha512sum.txt | sha512sum -c - \
 && apt-get update && apt-get install -y --no-install-recommends "./${SOUFFLE_DEB}" \
 && rm -rf /var/lib/apt/lists/* /tmp/souffle \
 && souffle --version

# The package, installed as the README says (a virtualenv, then pip install).
WORKDIR /opt/vadaorchestra
COPY pyproject.toml README.md ./
COPY vadaorchestra ./vadaorchestra
RUN python3 -m venv /opt/venv && /opt/venv/bin/pip install --no-cache-dir . \
 && /opt/venv/bin/vadaorchestra --help > /dev/null
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
