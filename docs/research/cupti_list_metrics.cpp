// cupti_list_metrics.cpp: every base metric of a chip with its description, from CUPTI's Profiler
// Host API (no GPU needed). Research for issue 29 (docs/research/hopper.md, section 6).
// build: g++ -I$CUDA_HOME/include cupti_list_metrics.cpp -L$CUDA_HOME/lib64 -lcupti -o q ; run: LD_LIBRARY_PATH=$CUDA_HOME/lib64 ./q GH100 > gh100.tsv
#include <cupti_profiler_host.h>
#include <cupti_result.h>
#include <cstdio>
#include <cstring>
int main(int argc,char**argv){
  CUpti_Profiler_Host_GetSupportedChips_Params c={CUpti_Profiler_Host_GetSupportedChips_Params_STRUCT_SIZE};
  if(cuptiProfilerHostGetSupportedChips(&c)==CUPTI_SUCCESS){fprintf(stderr,"chips:");for(size_t i=0;i<c.numChips;i++)fprintf(stderr," %s",c.ppChipNames[i]);fprintf(stderr,"\n");}
  CUpti_Profiler_Host_Initialize_Params p={CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
  p.profilerType=CUPTI_PROFILER_TYPE_RANGE_PROFILER; p.pChipName=argv[1];
  int r=cuptiProfilerHostInitialize(&p); if(r){fprintf(stderr,"init %d\n",r);return 1;}
  for(int t=0;t<3;t++){
    CUpti_Profiler_Host_GetBaseMetrics_Params b={CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
    b.pHostObject=p.pHostObject; b.metricType=(CUpti_MetricType)t;
    if(cuptiProfilerHostGetBaseMetrics(&b)) continue;
    for(size_t i=0;i<b.numMetrics;i++){
      CUpti_Profiler_Host_GetMetricProperties_Params m={CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
      m.pHostObject=p.pHostObject; m.pMetricName=b.ppMetricNames[i];
      const char*d="";
      if(cuptiProfilerHostGetMetricProperties(&m)==0 && m.pDescription) d=m.pDescription;
      printf("%d\t%s\t%s\n",t,b.ppMetricNames[i],d);
    }
  }
  return 0;
}
