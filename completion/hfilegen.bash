# bash completion for hfilegen (installed as share/bash-completion/completions/hfilegen).
# Commands and flags come from the program's own --help, so they follow the version that
# is installed; the values of enumerated flags are listed here.

# the flags `hfilegen CMD --help` prints, into REPLY (cached per command)
_hfilegen_flags() {
  local bin=$1 cmd=$2 var=_hfilegen_flags_${2//-/_}
  if [[ -z ${!var-} ]]; then
    printf -v "$var" '%s' "$("$bin" "$cmd" --help 2>/dev/null |
      sed 's/--\[no-\]\([a-z][a-z0-9-]*\)/--\1 --no-\1/g' |
      grep -oE '(^|[^A-Za-z0-9_-])--?[a-z][a-z0-9-]*' | sed 's/^[^-]*//' | sort -u | tr '\n' ' ')"
  fi
  REPLY=${!var}
}

_hfilegen_commands() {
  "$1" --help 2>/dev/null | awk '/^commands:/ {on = 1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on = 0}'
}

_hfilegen_files() { # $1: -d for directories
  if declare -F _filedir > /dev/null; then
    _filedir "$@"
  else
    local IFS=$'\n'
    # shellcheck disable=SC2207
    COMPREPLY=($(compgen "${1:--f}" -- "$cur"))
  fi
}

_hfilegen() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local bin=${COMP_WORDS[0]} cmd=${COMP_WORDS[1]-} words
  COMPREPLY=()
  [[ $bin == \~/* ]] && bin=$HOME/${bin#\~/}
  command -v "$bin" > /dev/null 2>&1 || bin=hfilegen
  if ((COMP_CWORD == 1)); then
    words="$(_hfilegen_commands "$bin") help --help --version"
  elif [[ $cmd == help ]]; then
    ((COMP_CWORD == 2)) && words=$(_hfilegen_commands "$bin")
  else
    case $prev in
      --codec) words="none gz snappy lz4 zstd-hadoop zstd-hbase" ;;
      --bloom) words="none row rowcol rowprefix:" ;;
      --encoding) words="none prefix diff fast_diff row_index_v1" ;;
      --checksum) words="crc32c crc32" ;;
      --gz-impl) words="zlib isal" ;;
      --spill-compression) words="none lz4" ;;
      --progress) words="plain none" ;;
      --on-duplicate) words="error last first" ;;
      --empty) words="skip store" ;;
      --empty-row) words="skip marker" ;;
      --incremental) words="append lastmodified" ;;
      --timestamp) words="now column:" ;;
      --algo) words="scheme hex hex-legacy decimal uniform sample" ;;
      --input-format) words="csv tsv mysql pg-text pg-csv" ;;
      --delimiter) words="tab , ; |" ;;
      --format)
        case $cmd in
          splits) words="lines shell json" ;;
          lint) words="text json" ;;
          scan-ranges) words="tsv shell json" ;;
          *) words="csv tsv mysql pg-text pg-csv" ;;
        esac ;;
      --job | --splits | --rejects | --hbase-site | --svg | --report | --input | -o)
        _hfilegen_files
        return ;;
      --from) # rekey, plan, splits, lint: a directory (the snapshot's root); scan-ranges: FIELD=V
        [[ $cmd != scan-ranges ]] && _hfilegen_files -d
        return ;;
      --deletes) # a file, or a database URI of the user's own
        _hfilegen_files
        return ;;
      --out | --tmp-dir | --last-value-from)
        _hfilegen_files -d
        return ;;
      --rowkey | --old-key | --raw-key | --map | --columns | --family | --family-option | \
        --table | --zookeeper | --znode-parent | --hbase-timeout | --memory | --threads | \
        --block-size | --bytes-per-checksum | --max-file-size | --create-time | \
        --job-timestamp | --max-rejects | --null-string | --fields-* | --lines-terminated-by | \
        --check-column | --last-value | --ingest-chunk | --regions | --sample | --seed | \
        --top | --hot-field | --limit | --snapshot | --as-of | --max-records | \
        --to | --max-ranges | --delete-if | --op-column | --deletes-time)
        return ;; # a value of the user's own
      *)
        if [[ $cur == -* ]]; then
          _hfilegen_flags "$bin" "$cmd"
          words=$REPLY
        else
          _hfilegen_files
          return
        fi ;;
    esac
  fi
  # shellcheck disable=SC2207
  COMPREPLY=($(compgen -W "$words" -- "$cur"))
  [[ ${#COMPREPLY[@]} -eq 1 && ${COMPREPLY[0]} == *: ]] && compopt -o nospace 2> /dev/null
  return 0
}
complete -F _hfilegen hfilegen
