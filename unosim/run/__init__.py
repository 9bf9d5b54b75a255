"""Running jobs: chunk plans, local threads or Dask, the Parquet store, seatings."""
