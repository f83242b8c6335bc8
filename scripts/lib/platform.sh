# Platform processes for Podium's shell entry points, sourced by ./podium, bench/bench.sh and scripts/e2e-*.sh: ports,
# the KRaft broker from the Kafka jars (one configuration, scripts/kafka/server.properties), and stopping a process
# with everything it started. Functions only: sourcing it starts nothing and sets no shell options.

PLATFORM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

# True when something accepts connections on 127.0.0.1:PORT.
platform_port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# The first port from START on that nothing listens on.
platform_first_free_port() { # start
  local port=$1
  while platform_port_in_use "$port"; do port=$((port + 1)); done
  echo "$port"
}

# The first even step from START on where PORT and PORT+1 are both free (a broker and its controller).
platform_first_free_pair() { # start
  local port=$1
  while platform_port_in_use "$port" || platform_port_in_use "$((port + 1))"; do port=$((port + 2)); done
  echo "$port"
}

# Waits up to SECONDS for 127.0.0.1:PORT to accept connections; false if it never did.
platform_wait_for_port() { # port seconds
  local i
  for ((i = 0; i < $2 * 4; i++)); do
    platform_port_in_use "$1" && return 0
    sleep 0.25
  done
  return 1
}

# Copies the broker's jars into DEST once per version of scripts/kafka/pom.xml (offline from ~/.m2 when it can, else
# from Maven Central) and prints DEST.
platform_kafka_libs() { # dest log
  local dest=$1 log=$2 pom
  pom=$(sha256sum <"$PLATFORM_ROOT/scripts/kafka/pom.xml")
  if [ "$(cat "$dest/.complete" 2>/dev/null)" != "$pom" ]; then
    mkdir -p "$dest"
    (cd "$PLATFORM_ROOT/scripts/kafka" && {
      mvn -o -B -q dependency:copy-dependencies -DoutputDirectory="$dest" -DincludeScope=runtime ||
        mvn -B -q dependency:copy-dependencies -DoutputDirectory="$dest" -DincludeScope=runtime
    }) >"$log" 2>&1 || return 1
    echo "$pom" >"$dest/.complete"
  fi
  echo "$dest"
}

# Writes DIR/server.properties for a broker on PORT (clients) and PORT+1 (controller), data in DIR/data, then the
# EXTRA lines, if any.
platform_kafka_configure() { # dir port [extra property lines...]
  local dir=$1 port=$2
  shift 2
  mkdir -p "$dir/data"
  sed -e "s|@PORT@|$port|g" -e "s|@CONTROLLER_PORT@|$((port + 1))|g" -e "s|@LOG_DIRS@|$dir/data|g" \
    "$PLATFORM_ROOT/scripts/kafka/server.properties" >"$dir/server.properties"
  local line
  for line in "$@"; do echo "$line" >>"$dir/server.properties"; done
}

# Writes DIR/server.properties (mode 600: it holds the super user's password) for a broker on PORT that signs every
# connection in and authorizes every request: server.properties with scripts/kafka/sasl.properties after it, the
# password read from ADMIN_PASSWORD_FILE. Expanded here, not by sed, so the password is on no command line.
platform_kafka_configure_sasl() { # dir port admin-password-file
  local dir=$1 port=$2 password line lines=()
  password=$(cat "$3")
  while IFS= read -r line; do
    case $line in '#'* | '') continue ;; esac
    line=${line//@PORT@/$port}
    line=${line//@CONTROLLER_PORT@/$((port + 1))}
    lines+=("${line//@ADMIN_PASSWORD@/$password}")
  done <"$PLATFORM_ROOT/scripts/kafka/sasl.properties"
  mkdir -p "$dir"
  : >"$dir/server.properties"
  chmod 600 "$dir/server.properties"
  platform_kafka_configure "$dir" "$port" "${lines[@]}"
}

# Creates the SCRAM user ingest and the ACLs of scripts/kafka/acls.conf on the SASL broker of DIR (PORT) with
# scripts/kafka/apply-acls.sh, the script docker-compose.yml's kafka-init runs, from the jars in LIBS. Once per data
# directory: again only when the data was formatted anew, the ACLs or the script changed, or the password did.
platform_kafka_provision() { # dir libs port admin-password-file ingest-password-file log
  local dir=$1 libs=$2 port=$3 stamp
  # the formatted data's meta.properties names its cluster id: a new format is a new stamp
  stamp=$(cat "$dir/data/meta.properties" "$PLATFORM_ROOT/scripts/kafka/acls.conf" \
    "$PLATFORM_ROOT/scripts/kafka/apply-acls.sh" "$5" | sha256sum)
  [ "$(cat "$dir/provisioned" 2>/dev/null)" = "$stamp" ] && return 0
  PODIUM_KAFKA_ADMIN_PASSWORD=$(cat "$4") PODIUM_KAFKA_INGEST_PASSWORD=$(cat "$5") KAFKA_LIBS=$libs \
    sh "$PLATFORM_ROOT/scripts/kafka/apply-acls.sh" "127.0.0.1:$port" >>"$6" 2>&1 || return 1
  echo "$stamp" >"$dir/provisioned"
}

# Formats DIR/data for the configuration in DIR, unless it was formatted for the same controller address (the quorum
# address is part of the formatted data: a new port needs a new data directory).
platform_kafka_format() { # dir libs log
  local dir=$1 libs=$2 log=$3 quorum
  quorum=$(sed -n 's/^controller.quorum.voters=[0-9]*@//p' "$dir/server.properties")
  if [ -f "$dir/data/meta.properties" ] && [ "$(cat "$dir/formatted-for" 2>/dev/null)" = "$quorum" ]; then
    return 0
  fi
  rm -rf "$dir/data" && mkdir -p "$dir/data"
  local id
  id=$(java -cp "$libs/*" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -n 1)
  java -cp "$libs/*" kafka.tools.StorageTool format -t "$id" -c "$dir/server.properties" >>"$log" 2>&1 || return 1
  echo "$quorum" >"$dir/formatted-for"
}

# Sets PLATFORM_KAFKA_COMMAND to the command that runs the broker configured in DIR with HEAP (e.g. 512m).
platform_kafka_command() { # dir libs heap
  PLATFORM_KAFKA_COMMAND=(java "-Xmx$3" "-Dlog4j2.configurationFile=$PLATFORM_ROOT/scripts/kafka/log4j2.yaml"
    -cp "$2/*" kafka.Kafka "$1/server.properties")
}

# Starts COMMAND in a session of its own (its process group is its pid), output appended to LOG, and sets
# PLATFORM_PID to it, so that platform_stop_group can stop all it starts.
platform_start() { # log command...
  local log=$1
  shift
  setsid "$@" >>"$log" 2>&1 </dev/null &
  PLATFORM_PID=$!
}

# Every process below PID (children, grandchildren...): a workload may run in a process group of its own.
platform_descendants() { # pid
  local child
  for child in $(ps -o pid= --ppid "$1" 2>/dev/null); do
    echo "$child"
    platform_descendants "$child"
  done
}

# Stops the process group of PID with SIGNAL (default TERM), up to SECONDS (default 10) for it to go, then KILLs the
# group and any process below PID that left it. True when PID was running.
platform_stop_group() { # pid [signal] [seconds]
  local pid=$1 signal=${2:-TERM} seconds=${3:-10} below i p
  kill -0 "$pid" 2>/dev/null || return 1
  below=$(platform_descendants "$pid" | tr '\n' ' ')
  disown "$pid" 2>/dev/null || true # no "Killed" job notice: the signal is ours
  kill "-$signal" -- "-$pid" 2>/dev/null || kill "-$signal" "$pid" 2>/dev/null || true
  for ((i = 0; i < seconds * 4; i++)); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.25
  done
  kill -KILL -- "-$pid" 2>/dev/null || true
  for p in $below; do kill -KILL "$p" 2>/dev/null || true; done
  return 0
}
